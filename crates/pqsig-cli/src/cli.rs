//! Command-line syntax (clap derive). Semantics live in `commands/`.

use clap::{Args, Parser, Subcommand, ValueEnum};
use pqsig::{Algorithm, Backend};
use std::path::PathBuf;

const EXAMPLES: &str = "\
Examples:
  pqsig list
  pqsig keygen --alg ML-DSA-65 --pk alice.pk --sk alice.sk
  pqsig pubkey --sk alice.sk --out alice.pk
  pqsig keygen --alg ML-DSA-65 --format raw --pk alice.raw.pk --sk alice.raw.sk
  pqsig sign   --sk alice.sk --in msg.txt --out msg.sig     # PEM/DER keys name their algorithm
  pqsig verify --pk alice.pk --in msg.txt --sig msg.sig && echo valid
  pqsig sign   --alg ML-DSA-65 --sk alice.raw.sk --in msg.txt --out msg.sig   # raw keys need --alg
  pqsig kat    --alg ML-DSA-44 --count 10 > PQCsignKAT_ML-DSA-44.rsp
  pqsig keygen --alg Falcon-512 --pk bob.pk --sk bob.sk
  pqsig kat    --alg Falcon-512 > falcon512-KAT.rsp
  pqsig keygen --alg SNOVA_I_S --pk carol.pk --sk carol.sk
  pqsig kat    --alg SNOVA_I_S_AES > PQCsignKAT_SNOVA_I_S_AES.rsp
  pqsig demo
  PQSIG_BACKEND=portable pqsig demo
  pqsig bench --alg ML-DSA-65 --alg Falcon-512
  pqsig kat    --all --out-dir kats
  pqsig verify-batch --in items.jsonl > verdicts.jsonl
  pqsig --device cpu-queue verify-batch --in - < items.jsonl
  pqsig device list
  pqsig bench --alg ML-DSA-44 --batch 256
  pqsig completions bash > /etc/bash_completion.d/pqsig

Exit codes: 0 success / valid signature; 1 invalid signature (verify), an invalid or
undecodable item (verify-batch) or failed self-check (demo); 2 any other error
(arguments, files, keys, hex, context, unknown device).";

/// pqsig: post-quantum signatures (ML-DSA / FIPS 204, Falcon round 3, FN-DSA draft,
/// SNOVA Round 3) from the command line.
///
/// Key files are written as PEM by default (SubjectPublicKeyInfo / PKCS#8; `--format der`
/// or `--format raw` for the others); key files are read in any of the three formats
/// (detected; raw by length). Raw keys and signatures are: FIPS 204 for ML-DSA; the round-3 public key,
/// compact secret key and detached signature (0x30+logn || nonce || comp(s2), zero-padded
/// for Falcon-padded-*) for Falcon; the fn-dsa 0.4.0 encodings for FN-DSA (a draft that
/// will change); for SNOVA the Round-3 public key (s_pub || P22), the 96-byte secret key
/// (s_pub || s_priv || SHAKE256(pk)[..48]) and the signature (solution || salt). The
/// arithmetic backend is chosen at
/// run time (CPU detection; PQSIG_BACKEND=portable|avx2|avx512|neon; or --backend).
#[derive(Debug, Parser)]
#[command(name = "pqsig", version, after_help = EXAMPLES, propagate_version = true)]
pub struct Cli {
    /// Arithmetic backend for this run (portable, avx2, avx512, neon); overrides PQSIG_BACKEND.
    #[arg(long, global = true, value_name = "NAME", value_parser = parse_backend)]
    pub backend: Option<Backend>,

    /// Batch device for verify-batch and bench --batch (`pqsig device list`; `cpu` = the
    /// CPU engine); overrides PQSIG_DEVICE. An unknown name is an error (exit 2).
    #[arg(long, global = true, value_name = "NAME")]
    pub device: Option<String>,

    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Print the supported algorithm names, one a line.
    #[command(after_help = LIST_EXAMPLES)]
    List(ListArgs),
    /// Generate a key pair (PEM files by default; --format der|raw).
    #[command(after_help = KEYGEN_EXAMPLES)]
    Keygen(KeygenArgs),
    /// Write the public key belonging to a private key file.
    #[command(after_help = PUBKEY_EXAMPLES)]
    Pubkey(PubkeyArgs),
    /// Sign a file (pure signing with an optional context string; hedged by default).
    #[command(after_help = SIGN_EXAMPLES)]
    Sign(SignArgs),
    /// Verify a signature: exit 0 if valid, 1 if invalid, 2 on any other error.
    #[command(after_help = VERIFY_EXAMPLES)]
    Verify(VerifyArgs),
    /// Verify many signatures from JSON lines: one verdict line per item, in order.
    #[command(name = "verify-batch", long_about = VERIFY_BATCH_ABOUT,
              after_help = VERIFY_BATCH_EXAMPLES)]
    VerifyBatch(VerifyBatchArgs),
    /// Batch devices: `pqsig device list`.
    #[command(after_help = DEVICE_EXAMPLES)]
    Device(DeviceArgs),
    /// Write a NIST PQCgenKAT_sign .rsp file to standard output.
    #[command(long_about = crate::commands::kat::LONG_ABOUT, after_help = KAT_EXAMPLES)]
    Kat(KatArgs),
    /// Self-test and benchmark every algorithm on every available backend.
    #[command(after_help = DEMO_EXAMPLES)]
    Demo(DemoArgs),
    /// Time keygen / sign / verify of our own backends (medians; a table or JSON lines).
    #[command(after_help = BENCH_EXAMPLES)]
    Bench(BenchArgs),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell) to stdout.
    #[command(after_help = COMPLETIONS_EXAMPLES)]
    Completions(CompletionsArgs),
    /// Sign or verify with keys held by a pqsig server (socket protocol or HTTP API).
    #[cfg(feature = "server")]
    #[command(after_help = crate::commands::client::AFTER_HELP)]
    Client(crate::commands::client::ClientArgs),
    /// Not built in (needs cargo feature `server`): sign or verify with a pqsig server.
    #[cfg(not(feature = "server"))]
    Client(crate::commands::not_built::NotBuiltArgs),
    /// Run the signing/verification service (HTTP+JSON; docs/SERVER.md).
    #[cfg(feature = "server")]
    Serve(crate::commands::serve::ServeArgs),
    /// Not built in (needs cargo feature `server`): the signing/verification service.
    #[cfg(not(feature = "server"))]
    Serve(crate::commands::not_built::NotBuiltArgs),
    /// Run a simulated NTT accelerator card until SIGINT/SIGTERM (PQSIG_CARD=PATH and
    /// --device card / card-per-call reach it).
    #[command(after_help = crate::commands::card::AFTER_HELP)]
    Card(crate::commands::card::CardArgs),
}

const LIST_EXAMPLES: &str = "\
Examples:
  pqsig list
  pqsig list --long     # sizes, and the key-file OID (provisional ones marked)";
const KEYGEN_EXAMPLES: &str = "\
Examples:
  pqsig keygen --alg ML-DSA-65 --pk alice.pub.pem --sk alice.pem
  pqsig keygen --alg ML-DSA-65 --mldsa-key-form both --format der --pk a.pub.der --sk a.der
  pqsig keygen --alg Falcon-512 --format raw --seed $(head -c48 /dev/urandom | xxd -p -c96) --pk bob.pk --sk bob.sk";
const PUBKEY_EXAMPLES: &str = "\
Examples:
  pqsig pubkey --sk alice.pem --out alice.pub.pem
  pqsig pubkey --sk alice.pem --out - --format der | xxd | head";
const SIGN_EXAMPLES: &str = "\
Examples:
  pqsig sign --sk alice.pem --in msg.txt --out msg.sig
  pqsig sign --alg ML-DSA-65 --sk alice.raw.sk --in msg.txt --out msg.sig   # a raw key
  tar c dir | pqsig sign --sk alice.pem --in - --out - --ctx 0a0b > dir.sig";
const VERIFY_EXAMPLES: &str = "\
Examples:
  pqsig verify --pk alice.pub.pem --in msg.txt --sig msg.sig && echo valid
  cat msg.txt | pqsig verify --alg ML-DSA-65 --pk alice.raw.pk --in - --sig msg.sig

Exit codes: 0 valid; 1 invalid signature; 2 any other error.";
const VERIFY_BATCH_ABOUT: &str = "\
Verify many signatures from JSON lines: one verdict line per item, in order.

Input (--in FILE, or - for standard input): one JSON object per line,
  {\"alg\": NAME, \"pk\": BASE64, \"msg\": BASE64, \"sig\": BASE64, \"ctx\": BASE64}
NAME as `pqsig list` prints it (case-insensitive, - and _ alike); pk is the raw public
key; ctx is optional (absent or null = empty); base64 is the standard alphabet, padding
optional; other fields are ignored. A blank (empty or whitespace-only) line is not an
item: it is skipped and takes no index. A CR before the LF is ignored.

Output (standard output): one JSON line per item, in input order,
  {\"index\":I,\"valid\":true,\"error\":null}
  {\"index\":I,\"valid\":false,\"error\":\"why\"}
I counts items from 0 (blank lines skipped). An item that cannot be decoded (missing
field, bad base64, unknown algorithm, wrong key length, ...) is not valid and its error
says why.

The whole input is read and checked first (kept decoded in memory), so a structural
error prints no verdicts at all; then items are verified through the batch engine in
chunks of 4096 (keys as encodings), each chunk's lines written when it completes.
--threads sets the CPU engine's threads (default: all cores); --device / PQSIG_DEVICE
picks a batch device (work it declines or fails runs on the CPU; same verdicts).";
const VERIFY_BATCH_EXAMPLES: &str = "\
Examples:
  pqsig verify-batch --in items.jsonl > verdicts.jsonl && echo all valid
  cat items.jsonl | pqsig verify-batch --in - --threads 4
  pqsig --device cpu-queue verify-batch --in items.jsonl
  pqsig verify-batch --in items.jsonl | grep -v '\"valid\":true'

Exit codes: 0 every item valid (or no items); 1 some item invalid or undecodable (its
line says why; stderr says how many); 2 the input cannot be read or a line is not a JSON
object (`pqsig: FILE: line N: ...`, N counting every line from 1), an unknown --device,
any other error.";
const DEVICE_EXAMPLES: &str = "\
Examples:
  pqsig device list
  pqsig --device cpu-queue verify-batch --in items.jsonl
  PQSIG_DEVICE=cpu-queue pqsig bench --alg ML-DSA-44 --batch 64";
const KAT_EXAMPLES: &str = "\
Examples:
  pqsig kat --alg ML-DSA-44 --count 10 > PQCsignKAT_ML-DSA-44.rsp
  pqsig kat --alg SNOVA_I_S_AES > PQCsignKAT_SNOVA_I_S_AES.rsp
  pqsig kat --all --out-dir kats      # one file per algorithm, official names
  pqsig --device rtl-falcon kat --alg Falcon-512 --count 5 --cycles cycles.jsonl
                                      # (hw-sim build) FFT/iFFT on the simulated RTL";
const BENCH_EXAMPLES: &str = "\
Examples:
  pqsig bench
  pqsig bench --alg ML-DSA-65 --alg Falcon-512 --iters 50
  pqsig bench --all --time 0.5 --json > bench.jsonl
  pqsig bench --backend portable --alg SNOVA_I_S
  pqsig bench --alg ML-DSA-44 --alg Falcon-512 --batch 256 --json
  pqsig --device cpu-queue bench --alg ML-DSA-65 --batch 1024 --iters 5";
const DEMO_EXAMPLES: &str = "\
Examples:
  pqsig demo
  pqsig demo --alg ML-DSA-65 --iters 10 --backend portable";
const COMPLETIONS_EXAMPLES: &str = "\
Examples:
  pqsig completions bash > ~/.local/share/bash-completion/completions/pqsig
  pqsig completions zsh > ~/.zfunc/_pqsig
  pqsig completions fish > ~/.config/fish/completions/pqsig.fish";

/// How a key file is encoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum KeyFormat {
    /// The scheme's own bytes, no wrapper (the only format of earlier pqsig versions).
    Raw,
    /// PEM: `PUBLIC KEY` (SubjectPublicKeyInfo) / `PRIVATE KEY` (PKCS#8).
    Pem,
    /// DER: SubjectPublicKeyInfo / PKCS#8.
    Der,
}

#[derive(Debug, Args)]
pub struct PubkeyArgs {
    /// Algorithm name (see `pqsig list`; case-insensitive). Needed for a raw key only:
    /// PEM and DER key files name theirs (a different one given here is an error).
    #[arg(long, value_name = "NAME", value_parser = parse_alg)]
    pub alg: Option<Algorithm>,
    /// Private key file (PEM, DER or raw; detected).
    #[arg(long, value_name = "FILE")]
    pub sk: PathBuf,
    /// Where to write the public key (`-` for standard output).
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Encoding of the public key written.
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t = KeyFormat::Pem)]
    pub format: KeyFormat,
}

#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell.
    #[arg(value_enum, value_name = "SHELL")]
    pub shell: clap_complete::Shell,
}

#[derive(Debug, Args)]
pub struct ListArgs {
    /// Also print key and signature sizes in bytes.
    #[arg(short, long)]
    pub long: bool,
}

#[derive(Debug, Args)]
pub struct KeygenArgs {
    /// Algorithm name (see `pqsig list`; case-insensitive).
    #[arg(long, value_name = "NAME", value_parser = parse_alg)]
    pub alg: Algorithm,
    /// Derive the key pair deterministically from this seed: ML-DSA 32 bytes (ξ), Falcon
    /// 48 bytes (the NIST keygen draw, absorbed into SHAKE256), FN-DSA 32 bytes, SNOVA
    /// 48 bytes (the NIST keygen draw: public seed 16 || private seed 32); in hex.
    /// Without it the seed comes from the operating system.
    #[arg(long, value_name = "HEX")]
    pub seed: Option<String>,
    /// Where to write the public key.
    #[arg(long, value_name = "FILE")]
    pub pk: PathBuf,
    /// Where to write the secret key (mode 0600 on unix). Raw: ML-DSA expanded FIPS 204
    /// key; Falcon compact round-3 key; FN-DSA fn-dsa signing key; SNOVA the 96-byte key.
    /// PEM/DER: PKCS#8, for ML-DSA the 32-byte seed form (RFC 9881).
    #[arg(long, value_name = "FILE")]
    pub sk: PathBuf,
    /// Encoding of both key files.
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t = KeyFormat::Pem)]
    pub format: KeyFormat,
    /// ML-DSA private key in PEM/DER: the RFC 9881 CHOICE `seed` (32 bytes, recommended),
    /// `expanded` (the FIPS 204 key) or `both`. Other algorithms and raw files ignore it.
    #[arg(long, value_enum, value_name = "FORM", default_value_t = MlDsaKeyForm::Seed)]
    pub mldsa_key_form: MlDsaKeyForm,
}

/// The ML-DSA private-key CHOICE written to PKCS#8 (RFC 9881).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum MlDsaKeyForm {
    /// `seed [0]`: only ξ.
    Seed,
    /// `expandedKey`: the FIPS 204 encoding.
    Expanded,
    /// `both`: seed and expanded key (checked for consistency when read).
    Both,
}

#[derive(Debug, Args)]
pub struct SignArgs {
    /// Algorithm name (see `pqsig list`; case-insensitive). Needed for a raw key only:
    /// PEM and DER key files name theirs (a different one given here is an error).
    #[arg(long, value_name = "NAME", value_parser = parse_alg)]
    pub alg: Option<Algorithm>,
    /// Secret key file: PEM or DER PKCS#8, or raw: the expanded key or (told apart by its
    /// length) the key-generation seed.
    #[arg(long, value_name = "FILE")]
    pub sk: PathBuf,
    /// Optional public key (PEM, DER or raw): check that the secret key belongs to it before signing.
    #[arg(long, value_name = "FILE")]
    pub pk: Option<PathBuf>,
    /// The message file (`-` for standard input).
    #[arg(long = "in", value_name = "FILE")]
    pub input: PathBuf,
    /// Where to write the signature (`-` for standard output).
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Context string in hex (at most 255 bytes; default empty; round-3 Falcon and SNOVA
    /// have none).
    #[arg(long, value_name = "HEX")]
    pub ctx: Option<String>,
    /// Deterministic signing (ML-DSA only: rnd = 0^32) instead of hedged signing with OS
    /// randomness. Falcon, FN-DSA and SNOVA always sign with fresh randomness.
    #[arg(long)]
    pub deterministic: bool,
}

#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// Algorithm name (see `pqsig list`; case-insensitive). Needed for a raw key only:
    /// PEM and DER key files name theirs (a different one given here is an error).
    #[arg(long, value_name = "NAME", value_parser = parse_alg)]
    pub alg: Option<Algorithm>,
    /// Public key file (PEM, DER or raw; detected).
    #[arg(long, value_name = "FILE")]
    pub pk: PathBuf,
    /// The message file (`-` for standard input).
    #[arg(long = "in", value_name = "FILE")]
    pub input: PathBuf,
    /// Signature file (`-` for standard input).
    #[arg(long, value_name = "FILE")]
    pub sig: PathBuf,
    /// Context string in hex (at most 255 bytes; default empty).
    #[arg(long, value_name = "HEX")]
    pub ctx: Option<String>,
}

#[derive(Debug, Args)]
pub struct VerifyBatchArgs {
    /// The JSON-lines file (`-` for standard input).
    #[arg(long = "in", value_name = "FILE")]
    pub input: PathBuf,
    /// Threads of the CPU engine (default: all cores).
    #[arg(long, value_name = "N",
          value_parser = clap::value_parser!(u32).range(1..=4096))]
    pub threads: Option<u32>,
}

#[derive(Debug, Args)]
pub struct DeviceArgs {
    #[command(subcommand)]
    pub command: DeviceCommand,
}

#[derive(Debug, Subcommand)]
pub enum DeviceCommand {
    /// Print the batch devices, one a line: name, then description (`cpu` first: the
    /// CPU engine, the default).
    #[command(after_help = DEVICE_EXAMPLES)]
    List,
}

#[derive(Debug, Args)]
pub struct KatArgs {
    /// Algorithm name (see `pqsig list`; case-insensitive).
    #[arg(long, value_name = "NAME", value_parser = parse_alg,
          required_unless_present = "all", conflicts_with = "all")]
    pub alg: Option<Algorithm>,
    /// Number of records.
    #[arg(long, value_name = "N", default_value_t = 100)]
    pub count: usize,
    /// Every algorithm, one file each in --out-dir (named like the official KAT files).
    #[arg(long, requires = "out_dir")]
    pub all: bool,
    /// Write `<official name>.rsp` files into this directory (created if missing)
    /// instead of standard output; progress on stderr, a summary on stdout.
    #[arg(long, value_name = "DIR")]
    pub out_dir: Option<PathBuf>,
    /// Progress lines on stderr even when it is not a terminal.
    #[arg(long)]
    pub progress: bool,
    /// Write the device cycles of each record to FILE, one JSON line per record
    /// (key generation and signing apart; FFT, iFFT and SamplerZ requests and cycles).
    /// Needs a --device that counts them (rtl-falcon).
    #[arg(long, value_name = "FILE", conflicts_with = "out_dir")]
    pub cycles: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Only these algorithms (repeatable; default: ML-DSA-44/65/87, Falcon-512,
    /// FN-DSA-512, SNOVA_I_S).
    #[arg(long, value_name = "NAME", value_parser = parse_alg, conflicts_with = "all")]
    pub alg: Vec<Algorithm>,
    /// Every algorithm.
    #[arg(long)]
    pub all: bool,
    /// Timed runs per operation at most (the median is reported).
    #[arg(long, value_name = "N", default_value_t = 20,
          value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub iters: u32,
    /// Time budget per operation in seconds: stop timing an operation once it is spent
    /// (at least one run; the run count is reported).
    #[arg(long, value_name = "SECONDS", default_value_t = 2.0, value_parser = parse_seconds)]
    pub time: f64,
    /// Also time the batch engine on N items under N distinct keys: verify_batch and
    /// sign_batch rows (time per item) at 1 thread and at all cores, keys as encodings
    /// (api bytes) and as decoded objects (api object). Signing is deterministic for
    /// ML-DSA, hedged for the others. Uses --device / PQSIG_DEVICE.
    #[arg(long, value_name = "N",
          value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub batch: Option<u32>,
    /// Only these batch rows (repeatable; default: all of them). `ntt` / `intt` rows
    /// exist with a card device (`--device card` / `card-per-call`) for ML-DSA.
    #[arg(long = "op", value_name = "OP", requires = "batch",
          value_parser = ["verify_batch", "sign_batch", "ntt", "intt"])]
    pub ops: Vec<String>,
    /// One JSON object per line (each row, then each summary line) instead of a table.
    #[arg(long)]
    pub json: bool,
    /// Progress lines on stderr even when it is not a terminal.
    #[arg(long)]
    pub progress: bool,
}

#[derive(Debug, Args)]
pub struct DemoArgs {
    /// Timed iterations per operation (the median is reported).
    #[arg(long, value_name = "N", default_value_t = 50,
          value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub iters: u32,
    /// Only these algorithms (repeatable; default: all).
    #[arg(long, value_name = "NAME", value_parser = parse_alg)]
    pub alg: Vec<Algorithm>,
}

fn parse_alg(s: &str) -> Result<Algorithm, String> {
    Algorithm::from_name(s).map_err(|_| {
        let known: Vec<&str> = Algorithm::ALL.iter().map(|a| a.name()).collect();
        format!("unknown algorithm (known: {})", known.join(", "))
    })
}

fn parse_seconds(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(t) if t > 0.0 && t <= 3600.0 => Ok(t),
        _ => Err("expected a number of seconds, more than 0 and at most 3600".to_string()),
    }
}

fn parse_backend(s: &str) -> Result<Backend, String> {
    Backend::from_name(s).ok_or_else(|| {
        let known: Vec<&str> = Backend::ALL.iter().map(|b| b.name()).collect();
        format!("unknown backend (known: {})", known.join(", "))
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn clap_definition_is_consistent() {
        use clap::CommandFactory;
        super::Cli::command().debug_assert();
    }
}
