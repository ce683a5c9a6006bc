// SPDX-License-Identifier: GPL-2.0
/*
 * ntt_hw_test - checks of /dev/ntt_hw run in the guest by hw/linux/run.sh.
 *
 *   ntt_hw_test bad              the bad-request suite (every case must fail
 *                                with its errno; then a good request works)
 *   ntt_hw_test short            two bad requests and one good one (CI)
 *   ntt_hw_test roundtrip MODE N N requests of NTT then INTT on random
 *                                polynomials, MODE percall, pooled or
 *                                doorbell (pooled, submitted through the
 *                                user-mapped doorbell page); each result
 *                                must equal the input times 2^32 mod q
 *   ntt_hw_test concurrent P N   P processes, N per-call round trips each
 *   ntt_hw_test mixed N          5 processes at once, N round trips each:
 *                                2 doorbell, 2 per-call, 1 pooled
 *   ntt_hw_test areas            pooled areas: 3 mmaps, the 4th -EBUSY
 *   ntt_hw_test stats            the driver's counters, key=value lines
 *   ntt_hw_test reset            clears them
 *
 * Exit status 0 when every check passed, 1 otherwise.
 */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ntt_hw.h"

#define DEV	"/dev/ntt_hw"
#define Q	8380417
#define N	256
/* 2^32 mod q: invntt_tomont leaves its result in Montgomery form. */
#define MONT	4193792

static int failures;

/* The doorbell page is the card's register set (crates/pqsig-card/src/regs.rs). */
_Static_assert(offsetof(struct ntt_hw_doorbell, offset) == 0x08, "offset");
_Static_assert(offsetof(struct ntt_hw_doorbell, start) == 0x20, "start");
_Static_assert(offsetof(struct ntt_hw_doorbell, status) == 0x2c, "status");
_Static_assert(offsetof(struct ntt_hw_doorbell, device_ns) == 0x58, "device_ns");

/* Card status values (struct ntt_hw_doorbell, status). */
#define CARD_OK		0
#define CARD_BAD_MODE	1
#define CARD_BAD_RANGE	2
#define CARD_TOO_MANY	3
#define CARD_BAD_DATA	4

static int open_dev(void)
{
	int fd = open(DEV, O_RDWR | O_CLOEXEC);

	if (fd < 0) {
		perror(DEV);
		exit(1);
	}
	return fd;
}

/* One case: the ioctl must fail with errno @want. */
static void expect(const char *name, int ret, int want)
{
	int err = ret < 0 ? errno : 0;

	if (ret < 0 && err == want) {
		printf("ok   %-44s -> %s\n", name, strerror(err));
		return;
	}
	printf("FAIL %-44s -> %s, want %s\n", name,
	       ret < 0 ? strerror(err) : "success", strerror(want));
	failures++;
}

static uint64_t rng = 0x9e3779b97f4a7c15ULL;

static int32_t coeff(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (int32_t)(rng % (2 * Q - 1)) - (Q - 1);
}

static int64_t modq(int64_t v)
{
	v %= Q;
	return v < 0 ? v + Q : v;
}

static int percall(int fd, int32_t *p, uint32_t n, uint32_t mode)
{
	struct ntt_hw_req r = { .buf = (uintptr_t)p, .num_polys = n, .mode = mode };

	return ioctl(fd, NTT_HW_IOC_TRANSFORM, &r);
}

static int pooled(int fd, uint64_t off, uint32_t n, uint32_t mode)
{
	struct ntt_hw_pool_req r = { .offset = off, .num_polys = n, .mode = mode };

	return ioctl(fd, NTT_HW_IOC_POOL_SUBMIT, &r);
}

/*
 * The doorbell page of this process's file, when mapped (mode doorbell). The
 * card writes it concurrently: every access is an atomic builtin.
 */
static struct ntt_hw_doorbell *bell;

#define PUT(field, v)	__atomic_store_n(&bell->field, (v), __ATOMIC_RELAXED)
#define GET(field)	__atomic_load_n(&bell->field, __ATOMIC_ACQUIRE)

/*
 * One request through the doorbell page, no system call: registers, then
 * start (a release store after them), then spin until done. Returns the
 * card's status, or -1 after about 4e9 spins without completion.
 */
static int ring(uint32_t region, uint64_t off, uint32_t n, uint32_t mode)
{
	uint32_t seq = GET(start) + 1;
	unsigned long spins;

	PUT(region, region);
	PUT(offset, off);
	PUT(mode, mode);
	PUT(num_polys, n);
	PUT(rung_ns, 0);
	__atomic_store_n(&bell->start, seq, __ATOMIC_RELEASE);
	for (spins = 0; GET(done) != seq; spins++) {
		/* Far more than 10 s of the slowest card request under TCG. */
		if (spins > 4000000000UL)
			return -1;
		__builtin_ia32_pause();
	}
	return (int)GET(status);
}

static void *map_doorbell(int fd)
{
	void *b = mmap(NULL, NTT_HW_DOORBELL_BYTES, PROT_READ | PROT_WRITE,
		       MAP_SHARED, fd, NTT_HW_DOORBELL_MMAP);

	if (b == MAP_FAILED)
		perror("mmap doorbell");
	return b;
}

/* A pooled request, through the doorbell when mapped, else by ioctl. */
static int submit(int fd, uint64_t off, uint32_t n, uint32_t mode)
{
	int st;

	if (!bell)
		return pooled(fd, off, n, mode);
	st = ring(0, off, n, mode);
	if (st == CARD_OK)
		return 0;
	errno = st < 0 ? ETIMEDOUT : EINVAL;
	return -1;
}

/* One doorbell case: the card must answer with status @want. */
static void expect_status(const char *name, int st, int want)
{
	if (st == want) {
		printf("ok   %-44s -> card status %d\n", name, st);
		return;
	}
	printf("FAIL %-44s -> card status %d, want %d\n", name, st, want);
	failures++;
}

/*
 * NTT then INTT of @n random polynomials through one interface (@win: the
 * pooled mapping, or NULL for per-call). Returns 0 when the result is the
 * input times 2^32 mod q.
 */
static int roundtrip_once(int fd, int32_t *win, uint32_t n)
{
	size_t words = (size_t)n * N, i;
	int32_t *a = malloc(words * 4), *p = win ? win : malloc(words * 4);
	int bad = 0;

	for (i = 0; i < words; i++) {
		a[i] = coeff();
		p[i] = a[i];
	}
	if (win ? submit(fd, 0, n, NTT_HW_MODE_MLDSA_NTT) :
		  percall(fd, p, n, NTT_HW_MODE_MLDSA_NTT)) {
		perror("ntt");
		bad = 1;
		goto out;
	}
	/* The inverse takes |a| < q: reduce the forward result. */
	for (i = 0; i < words; i++)
		p[i] = (int32_t)modq(p[i]);
	if (win ? submit(fd, 0, n, NTT_HW_MODE_MLDSA_INTT) :
		  percall(fd, p, n, NTT_HW_MODE_MLDSA_INTT)) {
		perror("intt");
		bad = 1;
		goto out;
	}
	for (i = 0; i < words && !bad; i++)
		bad = modq(p[i]) != modq((int64_t)a[i] * MONT);
	if (bad)
		fprintf(stderr, "round trip: wrong result\n");
out:
	free(a);
	if (!win)
		free(p);
	return bad;
}

static int roundtrip(const char *mode, int count)
{
	int fd = open_dev(), bad = 0, i;
	struct timespec t0, t1;
	int32_t *win = NULL;

	if (!strcmp(mode, "pooled") || !strcmp(mode, "doorbell")) {
		win = mmap(NULL, NTT_HW_POOL_BYTES, PROT_READ | PROT_WRITE,
			   MAP_SHARED, fd, 0);
		if (win == MAP_FAILED) {
			perror("mmap");
			return 1;
		}
		if (!strcmp(mode, "doorbell")) {
			bell = map_doorbell(fd);
			if (bell == MAP_FAILED)
				return 1;
		}
	} else if (strcmp(mode, "percall")) {
		fprintf(stderr, "round trip mode: percall, pooled or doorbell\n");
		return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; i < count && !bad; i++)
		bad = roundtrip_once(fd, win, 1 + (i * 5) % 12);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	/* Wall time per request (two per round trip), data preparation included. */
	printf("%s %s: %d round trips, %.0f us per request\n", bad ? "FAIL" : "ok  ",
	       mode, i, i ? ((t1.tv_sec - t0.tv_sec) * 1e6 +
			     (t1.tv_nsec - t0.tv_nsec) / 1e3) / (2.0 * i) : 0.0);
	close(fd);
	return bad;
}

static int concurrent(int procs, int count)
{
	int i, status, bad = 0;

	for (i = 0; i < procs; i++) {
		if (fork() == 0) {
			rng += (uint64_t)i * 7919;
			exit(roundtrip("percall", count));
		}
	}
	for (i = 0; i < procs; i++) {
		if (wait(&status) < 0 || !WIFEXITED(status) || WEXITSTATUS(status))
			bad = 1;
	}
	printf("%s %d processes at once\n", bad ? "FAIL" : "ok  ", procs);
	return bad;
}

static int mixed(int count)
{
	static const char * const modes[] = {
		"doorbell", "percall", "doorbell", "percall", "pooled" };
	int i, status, bad = 0;

	for (i = 0; i < 5; i++) {
		if (fork() == 0) {
			rng += (uint64_t)i * 104729;
			exit(roundtrip(modes[i], count));
		}
	}
	for (i = 0; i < 5; i++) {
		if (wait(&status) < 0 || !WIFEXITED(status) || WEXITSTATUS(status))
			bad = 1;
	}
	printf("%s 5 processes at once: 2 doorbell, 2 per-call, 1 pooled\n",
	       bad ? "FAIL" : "ok  ");
	return bad;
}

static int areas(void)
{
	int fd[4], i, bad = 0;
	void *m[4];

	for (i = 0; i < 4; i++) {
		fd[i] = open_dev();
		m[i] = mmap(NULL, NTT_HW_POOL_BYTES, PROT_READ | PROT_WRITE,
			    MAP_SHARED, fd[i], 0);
	}
	for (i = 0; i < 3; i++)
		bad |= m[i] == MAP_FAILED;
	bad |= !(m[3] == MAP_FAILED && errno == EBUSY);
	munmap(m[0], NTT_HW_POOL_BYTES);
	close(fd[0]);
	m[0] = mmap(NULL, NTT_HW_POOL_BYTES, PROT_READ | PROT_WRITE,
		    MAP_SHARED, fd[3], 0);
	bad |= m[0] == MAP_FAILED;
	for (i = 1; i < 4; i++)
		close(fd[i]);
	printf("%s pooled window: 3 openers, the 4th busy until one closes\n",
	       bad ? "FAIL" : "ok  ");
	return bad;
}

/*
 * The doorbell page of @pfd (whose pool is mapped): bad mappings get an
 * errno, bad requests a card status, and the card still serves a good one.
 */
static void doorbell_requests(int pfd, long page)
{
	int32_t *win;

	expect("doorbell mmap of two pages",
	       mmap(NULL, 2 * page, PROT_READ | PROT_WRITE, MAP_SHARED, pfd,
		    NTT_HW_DOORBELL_MMAP) == MAP_FAILED ? -1 : 0, EINVAL);
	expect("doorbell mmap private",
	       mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_PRIVATE, pfd,
		    NTT_HW_DOORBELL_MMAP) == MAP_FAILED ? -1 : 0, EINVAL);
	bell = map_doorbell(pfd);
	if (bell == MAP_FAILED) {
		bell = NULL;
		failures++;
		return;
	}
	expect_status("doorbell offset at the end",
		      ring(0, NTT_HW_POOL_BYTES, 1, 1), CARD_BAD_RANGE);
	expect_status("doorbell request past the end",
		      ring(0, NTT_HW_POOL_BYTES - NTT_HW_POLY_BYTES, 2, 1),
		      CARD_BAD_RANGE);
	expect_status("doorbell misaligned offset", ring(0, 2, 1, 1),
		      CARD_BAD_RANGE);
	expect_status("doorbell offset 2^64-64", ring(0, ~0ULL << 6, 1, 1),
		      CARD_BAD_RANGE);
	expect_status("doorbell region 1 (none)", ring(1, 0, 1, 1),
		      CARD_BAD_RANGE);
	expect_status("doorbell num_polys MAX+1 (past the area)",
		      ring(0, 0, NTT_HW_MAX_POLYS + 1, 1), CARD_BAD_RANGE);
	expect_status("doorbell num_polys 2^32-1", ring(0, 0, 0xffffffffu, 1),
		      CARD_TOO_MANY);
	expect_status("doorbell unknown mode", ring(0, 0, 1, 9), CARD_BAD_MODE);
	win = mmap(NULL, NTT_HW_POOL_BYTES, PROT_READ | PROT_WRITE, MAP_SHARED,
		   pfd, 0);
	if (win != MAP_FAILED) {
		win[0] = Q;
		expect_status("doorbell coefficient = q", ring(0, 0, 1, 1),
			      CARD_BAD_DATA);
		win[0] = 0;
		munmap(win, NTT_HW_POOL_BYTES);
	}
	expect_status("doorbell good request", ring(0, 0, 1, 1), CARD_OK);
	munmap(bell, NTT_HW_DOORBELL_BYTES);
	bell = NULL;
}

static int bad_requests(int all)
{
	int fd = open_dev(), pfd;
	long page = sysconf(_SC_PAGESIZE);
	int32_t *good = calloc(4 * N, 4), *ro, *win;
	char *two;
	struct ntt_hw_req r;

	expect("unknown mode 7", percall(fd, good, 1, 7), EINVAL);
	expect("null buffer", percall(fd, NULL, 1, 1), EFAULT);
	if (!all)
		goto good;
	expect("null request pointer",
	       ioctl(fd, NTT_HW_IOC_TRANSFORM, NULL), EFAULT);
	expect("unknown mode 0", percall(fd, good, 1, 0), EINVAL);
	expect("mode with high bits", percall(fd, good, 1, 0x101), EINVAL);
	expect("num_polys 0", percall(fd, good, 0, 1), EINVAL);
	expect("num_polys MAX+1", percall(fd, good, NTT_HW_MAX_POLYS + 1, 1),
	       EINVAL);
	expect("num_polys 2^32-1 (huge)", percall(fd, good, 0xffffffffu, 1),
	       EINVAL);
	expect("misaligned buffer",
	       percall(fd, (int32_t *)((char *)good + 1), 1, 1), EINVAL);
	expect("kernel address as buffer",
	       percall(fd, (int32_t *)0xffff888000000000ULL, 1, 1), EFAULT);
	/* A buffer shorter than num_polys says: the rest is unmapped. */
	two = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	munmap(two + page, page);
	memset(two, 0, page);
	expect("buffer runs into unmapped memory",
	       percall(fd, (int32_t *)two, 2 * page / NTT_HW_POLY_BYTES, 1),
	       EFAULT);
	munmap(two, page);
	expect("unmapped buffer", percall(fd, (int32_t *)two, 1, 1), EFAULT);
	/* Readable but not writable: copy-in works, copy-out must fail. */
	ro = mmap(NULL, page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	expect("read-only buffer (copy-out)", percall(fd, ro, 1, 1), EFAULT);
	munmap(ro, page);
	good[0] = Q;
	expect("coefficient = q (card refuses)", percall(fd, good, 1, 1),
	       EINVAL);
	good[0] = 0;
	memset(&r, 0, sizeof(r));
	expect("wrong request size in the command",
	       ioctl(fd, _IOW(NTT_HW_IOC_MAGIC, 1, __u64), &r), ENOTTY);
	expect("unknown command", ioctl(fd, _IO(NTT_HW_IOC_MAGIC, 99)), ENOTTY);

	/* Pooled interface. */
	pfd = open_dev();
	expect("pooled before mmap", pooled(pfd, 0, 1, 1), EINVAL);
	expect("mmap larger than the pool",
	       mmap(NULL, NTT_HW_POOL_BYTES + page, PROT_READ | PROT_WRITE,
		    MAP_SHARED, pfd, 0) == MAP_FAILED ? -1 : 0, EINVAL);
	expect("mmap at an offset",
	       mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_SHARED, pfd,
		    page) == MAP_FAILED ? -1 : 0, EINVAL);
	expect("mmap private",
	       mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_PRIVATE, pfd,
		    0) == MAP_FAILED ? -1 : 0, EINVAL);
	win = mmap(NULL, NTT_HW_POOL_BYTES, PROT_READ | PROT_WRITE, MAP_SHARED,
		   pfd, 0);
	if (win == MAP_FAILED) {
		perror("mmap");
		failures++;
	} else {
		memset(win, 0, NTT_HW_POOL_BYTES);
		expect("pooled misaligned offset", pooled(pfd, 4, 1, 1), EINVAL);
		expect("pooled offset at the end",
		       pooled(pfd, NTT_HW_POOL_BYTES, 1, 1), EINVAL);
		expect("pooled offset 2^64-64 (overflow)",
		       pooled(pfd, ~0ULL << 6, 1, 1), EINVAL);
		expect("pooled request past the end",
		       pooled(pfd, NTT_HW_POLY_BYTES, NTT_HW_MAX_POLYS, 1),
		       EINVAL);
		expect("pooled num_polys 2^32-1",
		       pooled(pfd, 0, 0xffffffffu, 1), EINVAL);
		expect("pooled unknown mode", pooled(pfd, 0, 1, 9), EINVAL);
		if (pooled(pfd, 0, 1, 1)) {
			perror("pooled good request");
			failures++;
		}
		doorbell_requests(pfd, page);
	}
	close(pfd);
good:
	if (percall(fd, good, 4, 1)) {
		perror("good request after the bad ones");
		failures++;
	} else {
		printf("ok   a good request after the bad ones\n");
	}
	close(fd);
	free(good);
	return failures != 0;
}

static int stats(int reset)
{
	static const char * const ph[NTT_HW_PHASES] = {
		"entry", "check", "alloc", "copy_in", "window_in", "regs", "poll",
		"window_out", "copy_out", "exit", "total" };
	struct ntt_hw_stats s;
	int fd = open_dev(), i;

	if (reset) {
		if (ioctl(fd, NTT_HW_IOC_STATS_RESET))
			return 1;
		close(fd);
		return 0;
	}
	if (ioctl(fd, NTT_HW_IOC_STATS, &s)) {
		perror("stats");
		return 1;
	}
	close(fd);
	/* This process's own open and ioctl are in the counts: take them out. */
	s.opens--;
	s.ioctls--;
	printf("opens=%llu\nioctls=%llu\nmmaps=%llu\npercall_requests=%llu\n"
	       "pool_requests=%llu\nrejected=%llu\ncard_errors=%llu\npolys=%llu\n"
	       "allocs=%llu\nuser_copies=%llu\nuser_bytes=%llu\n"
	       "window_copies=%llu\nwindow_bytes=%llu\ndoorbells=%llu\n"
	       "poll_reads=%llu\ncard_device_ns=%llu\n",
	       (unsigned long long)s.opens, (unsigned long long)s.ioctls,
	       (unsigned long long)s.mmaps,
	       (unsigned long long)s.percall_requests,
	       (unsigned long long)s.pool_requests,
	       (unsigned long long)s.rejected,
	       (unsigned long long)s.card_errors, (unsigned long long)s.polys,
	       (unsigned long long)s.allocs, (unsigned long long)s.user_copies,
	       (unsigned long long)s.user_bytes,
	       (unsigned long long)s.window_copies,
	       (unsigned long long)s.window_bytes,
	       (unsigned long long)s.doorbells,
	       (unsigned long long)s.poll_reads,
	       (unsigned long long)s.card_device_ns);
	for (i = 0; i < NTT_HW_PHASES; i++)
		printf("percall_ns_%s=%llu\n", ph[i],
		       (unsigned long long)s.percall_ns[i]);
	for (i = 0; i < NTT_HW_PHASES; i++)
		printf("pool_ns_%s=%llu\n", ph[i],
		       (unsigned long long)s.pool_ns[i]);
	return 0;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 2 && !strcmp(argv[1], "bad"))
		return bad_requests(1);
	if (argc == 2 && !strcmp(argv[1], "short"))
		return bad_requests(0);
	if (argc == 4 && !strcmp(argv[1], "roundtrip"))
		return roundtrip(argv[2], atoi(argv[3]));
	if (argc == 4 && !strcmp(argv[1], "concurrent"))
		return concurrent(atoi(argv[2]), atoi(argv[3]));
	if (argc == 3 && !strcmp(argv[1], "mixed"))
		return mixed(atoi(argv[2]));
	if (argc == 2 && !strcmp(argv[1], "areas"))
		return areas();
	if (argc == 2 && !strcmp(argv[1], "stats"))
		return stats(0);
	if (argc == 2 && !strcmp(argv[1], "reset"))
		return stats(1);
	fprintf(stderr,
		"usage: ntt_hw_test bad|short|areas|stats|reset|roundtrip MODE N|concurrent P N|mixed N\n");
	return 2;
}
