/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * User-space ABI of /dev/ntt_hw, the NTT/INTT accelerator card
 * behind QEMU's ivshmem-plain PCI device (see docs/OFFLOAD-KERNEL.md).
 *
 * Shared by the module (ntt_hw.c), the C test program (ntt_hw_test.c) and the
 * Rust devices `ntt-hw` / `ntt-hw-pooled` (crates/pqsig-card/src/ntt_hw.rs,
 * which restates these numbers and checks them in its tests).
 *
 * All structures have fixed-size fields and no implicit padding, so 32-bit
 * and 64-bit callers see the same layout.
 */
#ifndef _UAPI_NTT_HW_H
#define _UAPI_NTT_HW_H

#include <linux/ioctl.h>
#include <linux/types.h>

/* Request modes (the card's MODE register values). */
#define NTT_HW_MODE_MLDSA_NTT	1	/* ML-DSA forward NTT */
#define NTT_HW_MODE_MLDSA_INTT	2	/* ML-DSA inverse NTT times 2^32 */

/* One ML-DSA polynomial: 256 little-endian int32 words, |a| < q. */
#define NTT_HW_POLY_BYTES	1024
/* Most polynomials in one request (either interface). */
#define NTT_HW_MAX_POLYS	512
/* Per-call buffers: word alignment. */
#define NTT_HW_BUF_ALIGN	4
/* Pooled interface: bytes one open file may mmap, and offset alignment. */
#define NTT_HW_POOL_BYTES	(NTT_HW_MAX_POLYS * NTT_HW_POLY_BYTES)
#define NTT_HW_POOL_ALIGN	64

/*
 * User doorbell: mmap at offset NTT_HW_DOORBELL_MMAP, NTT_HW_DOORBELL_BYTES long,
 * on a file that holds a pooled area, maps that area's own submission registers
 * (struct ntt_hw_doorbell) when the card offers them (-ENODEV otherwise). The
 * caller then submits without a system call: it writes region (0), offset,
 * mode and num_polys, then start = start + 1 (a release store, after the
 * others), and polls until done equals the value it wrote; status then holds
 * the card's verdict (0 ok, 1 bad mode, 2 bad range, 3 too many polynomials,
 * 4 bad data, 5 failed). offset is a byte offset in the file's pooled
 * mapping (mmap offset 0), as for NTT_HW_IOC_POOL_SUBMIT; the card refuses any
 * buffer outside that area. One request at a time per file. Requests made
 * this way do not pass through the driver: its stats do not count them.
 */
#define NTT_HW_DOORBELL_MMAP	1048576
#define NTT_HW_DOORBELL_BYTES	4096

/*
 * struct ntt_hw_doorbell - the card's register set as the doorbell page maps
 * it (crates/pqsig-card/src/regs.rs, struct Slot). Access with volatile or
 * atomic loads and stores only: the card writes it concurrently.
 */
struct ntt_hw_doorbell {
	__u32 region;		/* write 0: the pooled area */
	__u32 pad0;
	__u64 offset;		/* byte offset in the pooled mapping */
	__u32 mode;		/* NTT_HW_MODE_* */
	__u32 num_polys;	/* 1 .. NTT_HW_MAX_POLYS */
	__u64 rung_ns;		/* write 0 */
	__u32 start;		/* sequence number of the request, written last */
	__u32 done;		/* the card writes start here when the results are in */
	__u32 host_sleeping;	/* unused here (0) */
	__u32 status;		/* the card's verdict, valid once done == start */
	__u32 idle;		/* 1 while no request is in progress */
	__u32 pad1;
	__u64 cycles_load;	/* the card's counters of the last request */
	__u64 cycles_compute;
	__u64 cycles_store;
	__u64 cycles_total;
	__u64 device_ns;
	__u64 queued_ns;
};

/*
 * struct ntt_hw_req - the design's per-call request.
 * @buf:       user address of @num_polys polynomials, transformed in place
 * @num_polys: 1 .. NTT_HW_MAX_POLYS
 * @mode:      NTT_HW_MODE_*
 *
 * The driver copies the polynomials into a DMA-coherent buffer it allocates
 * for this call, from there into the card's window, starts the card, polls
 * for completion and copies the result back the same way.
 */
struct ntt_hw_req {
	__u64 buf;
	__u32 num_polys;
	__u32 mode;
};

/*
 * struct ntt_hw_pool_req - a pooled request on this file's mapped window.
 * @offset:    byte offset in the file's mapping (mmap offset 0), a multiple
 *             of NTT_HW_POOL_ALIGN; offset + num_polys * POLY_BYTES must not
 *             exceed NTT_HW_POOL_BYTES
 * @num_polys: 1 .. NTT_HW_MAX_POLYS
 * @mode:      NTT_HW_MODE_*
 *
 * No copies: the caller wrote the polynomials into the mapping and reads the
 * results there when the ioctl returns.
 */
struct ntt_hw_pool_req {
	__u64 offset;
	__u32 num_polys;
	__u32 mode;
};

/* Phases of one request, for struct ntt_hw_stats' time sums (ns). */
enum ntt_hw_phase {
	NTT_HW_PH_ENTRY,	/* ioctl entry: request struct copied in */
	NTT_HW_PH_CHECK,	/* request checks, lock taken */
	NTT_HW_PH_ALLOC,	/* per-call coherent buffer allocated */
	NTT_HW_PH_COPY_IN,	/* copy_from_user into the coherent buffer */
	NTT_HW_PH_WIN_IN,	/* coherent buffer -> card window */
	NTT_HW_PH_REGS,		/* register writes, start (doorbell) */
	NTT_HW_PH_POLL,		/* polling the done register */
	NTT_HW_PH_WIN_OUT,	/* card window -> coherent buffer */
	NTT_HW_PH_COPY_OUT,	/* copy_to_user */
	NTT_HW_PH_EXIT,		/* buffer freed, lock dropped */
	NTT_HW_PH_TOTAL,	/* the whole ioctl */
	NTT_HW_PHASES
};

/*
 * struct ntt_hw_stats - driver counters since load or the last reset
 * (device-wide, all openers).
 */
struct ntt_hw_stats {
	__u64 opens;		/* open() calls */
	__u64 ioctls;		/* ioctl() calls, any command */
	__u64 mmaps;		/* mmap() calls */
	__u64 percall_requests;	/* completed NTT_HW_IOC_TRANSFORM */
	__u64 pool_requests;	/* completed NTT_HW_IOC_POOL_SUBMIT */
	__u64 rejected;		/* requests refused (-EINVAL, -EFAULT, ...) */
	__u64 card_errors;	/* requests the card completed with an error */
	__u64 polys;		/* polynomials transformed */
	__u64 allocs;		/* coherent buffers allocated */
	__u64 user_copies;	/* copy_from_user/copy_to_user of data */
	__u64 user_bytes;
	__u64 window_copies;	/* memcpy_toio/memcpy_fromio of data */
	__u64 window_bytes;
	__u64 doorbells;	/* start register writes */
	__u64 poll_reads;	/* done register reads */
	__u64 card_device_ns;	/* sum of the card's device-time register */
	__u64 percall_ns[NTT_HW_PHASES];	/* time sums, per-call requests */
	__u64 pool_ns[NTT_HW_PHASES];		/* time sums, pooled requests */
};

#define NTT_HW_IOC_MAGIC	'N'
#define NTT_HW_IOC_TRANSFORM	_IOW(NTT_HW_IOC_MAGIC, 1, struct ntt_hw_req)
#define NTT_HW_IOC_POOL_SUBMIT	_IOW(NTT_HW_IOC_MAGIC, 2, struct ntt_hw_pool_req)
#define NTT_HW_IOC_STATS	_IOR(NTT_HW_IOC_MAGIC, 3, struct ntt_hw_stats)
#define NTT_HW_IOC_STATS_RESET	_IO(NTT_HW_IOC_MAGIC, 4)

#endif /* _UAPI_NTT_HW_H */
