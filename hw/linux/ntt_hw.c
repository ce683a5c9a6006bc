// SPDX-License-Identifier: GPL-2.0
/*
 * ntt_hw - driver for the pqsig NTT/INTT accelerator card behind QEMU's
 * ivshmem-plain PCI device (1af4:1110).
 *
 * BAR2 of the ivshmem device is memory shared with the host, where the card
 * process (`pqsig card --ivshmem FILE`) maps the same file. Its layout:
 *
 *   0x000000  register page: card header, then 4 register slots of 128 bytes
 *             (slot 0 at 0x80 is the one this driver uses)
 *   0x001000  data window, 2 MiB, standing for the card's DMA memory:
 *             areas 0..2 (512 KiB each) are handed to pooled openers by mmap,
 *             area 3 is where per-call requests are staged
 *   0x201000  user slots: one register set per area, each on its own page,
 *             when the card announces them (CARD_CAP_USER_SLOTS); the card
 *             bounds the buffers named through page k to area k
 *
 * ivshmem-plain has no interrupts, so completion is found by polling the
 * slot's done register (a sequence number the card writes when the results
 * are in the window).
 *
 * Two interfaces on /dev/ntt_hw (see ntt_hw.h):
 *   NTT_HW_IOC_TRANSFORM   the design's per-call request: user buffer ->
 *                          coherent buffer -> window -> card -> back
 *   NTT_HW_IOC_POOL_SUBMIT the design's proposed fix: the caller mmaps a
 *                          preallocated window area and names offsets in it
 *   doorbell mmap          the same area's own user slot mapped into the
 *                          caller: submission and completion without a
 *                          system call (NTT_HW_DOORBELL_MMAP)
 * Register slot 0 serves the ioctls of every opener: they are serialized by a
 * mutex. User slots are served by the card between them, in its ring order.
 */

#include <linux/delay.h>
#include <linux/dma-mapping.h>
#include <linux/fs.h>
#include <linux/io.h>
#include <linux/ktime.h>
#include <linux/miscdevice.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/pci.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "ntt_hw.h"

#define DRV_NAME		"ntt_hw"

/* ivshmem: BAR0 registers (unused without interrupts), BAR2 shared memory. */
#define IVSHMEM_SHMEM_BAR	2

/* Card header (crates/pqsig-card/src/regs.rs, struct Header). */
#define CARD_MAGIC		0x44435150	/* "PQCD" */
#define CARD_VERSION		1
#define HDR_MAGIC		0x00
#define HDR_VERSION		0x04
#define HDR_SLOTS		0x08
#define HDR_WINDOW_OFFSET	0x10
#define HDR_WINDOW_LEN		0x18
#define HDR_CAPS		0x48
#define HDR_USER_SLOTS		0x4c
#define CARD_CAP_USER_SLOTS	0x1

/* Register slot 0 (struct Slot); 64-bit registers are two 32-bit halves. */
#define SLOT0			0x80
#define REG_REGION		(SLOT0 + 0x00)
#define REG_OFFSET_LO		(SLOT0 + 0x08)
#define REG_OFFSET_HI		(SLOT0 + 0x0c)
#define REG_MODE		(SLOT0 + 0x10)
#define REG_NUM_POLYS		(SLOT0 + 0x14)
#define REG_RUNG_LO		(SLOT0 + 0x18)
#define REG_RUNG_HI		(SLOT0 + 0x1c)
#define REG_START		(SLOT0 + 0x20)
#define REG_DONE		(SLOT0 + 0x24)
#define REG_STATUS		(SLOT0 + 0x2c)
#define REG_DEVICE_NS_LO	(SLOT0 + 0x58)
#define REG_DEVICE_NS_HI	(SLOT0 + 0x5c)

/* Card status values (enum Status). */
#define CARD_OK			0
#define CARD_FAILED		5

#define WINDOW_OFFSET		0x1000
#define AREA_BYTES		NTT_HW_POOL_BYTES
#define POOL_AREAS		3
#define PERCALL_AREA		3
#define WINDOW_BYTES		((POOL_AREAS + 1) * AREA_BYTES)
/* User slot of area k: its own page after the window (struct ntt_hw_doorbell). */
#define USER_SLOTS		(WINDOW_OFFSET + WINDOW_BYTES)
#define USER_SLOT(k)		(USER_SLOTS + (k) * NTT_HW_DOORBELL_BYTES)
#define USLOT_REGION		0x00
#define USLOT_RUNG_LO		0x18
#define USLOT_RUNG_HI		0x1c
#define USLOT_START		0x20
#define USLOT_DONE		0x24
#define USLOT_HOST_SLEEPING	0x28
#define SHM_BYTES		(USER_SLOTS + POOL_AREAS * NTT_HW_DOORBELL_BYTES)

/* Completion: poll without sleeping this long, then sleep between reads. */
#define POLL_SPIN_NS		(20 * NSEC_PER_USEC)
#define POLL_TIMEOUT_NS		(10 * NSEC_PER_SEC)

struct ntt_hw {
	struct pci_dev *pdev;
	void __iomem *shm;		/* BAR2, mapped */
	resource_size_t shm_phys;
	resource_size_t shm_len;
	struct miscdevice misc;
	struct mutex lock;		/* one request at a time; guards below */
	u32 seq;			/* last start value written */
	bool wedged;			/* a request timed out: card still busy */
	bool area_used[POOL_AREAS];
	struct ntt_hw_stats stats;
};

struct ntt_hw_file {
	struct ntt_hw *hw;
	int area;			/* pooled area, -1 before mmap */
};

/* One ivshmem device is driven; a second one is refused at probe. */
static struct ntt_hw *ntt_hw_dev;
static DEFINE_MUTEX(ntt_hw_dev_lock);

static u32 shm_read(struct ntt_hw *hw, unsigned int reg)
{
	return ioread32(hw->shm + reg);
}

static void shm_write(struct ntt_hw *hw, unsigned int reg, u32 val)
{
	iowrite32(val, hw->shm + reg);
}

static bool card_present(struct ntt_hw *hw)
{
	return shm_read(hw, HDR_MAGIC) == CARD_MAGIC &&
	       shm_read(hw, HDR_VERSION) == CARD_VERSION &&
	       shm_read(hw, HDR_WINDOW_OFFSET) == WINDOW_OFFSET &&
	       shm_read(hw, HDR_WINDOW_LEN) >= WINDOW_BYTES;
}

/* The card serves a user slot per area, where this driver expects them. */
static bool card_user_slots(struct ntt_hw *hw)
{
	return card_present(hw) &&
	       (shm_read(hw, HDR_CAPS) & CARD_CAP_USER_SLOTS) &&
	       shm_read(hw, HDR_USER_SLOTS) == USER_SLOTS;
}

/* No request of an earlier holder is in flight on area k's user slot. */
static bool user_slot_quiet(struct ntt_hw *hw, int k)
{
	return shm_read(hw, USER_SLOT(k) + USLOT_START) ==
	       shm_read(hw, USER_SLOT(k) + USLOT_DONE);
}

static bool mode_valid(u32 mode)
{
	return mode == NTT_HW_MODE_MLDSA_NTT || mode == NTT_HW_MODE_MLDSA_INTT;
}

static bool num_polys_valid(u32 num_polys)
{
	return num_polys >= 1 && num_polys <= NTT_HW_MAX_POLYS;
}

/* Phase times go to a request-local array first, into the stats under the lock. */
static void phase(u64 *sums, enum ntt_hw_phase ph, u64 *t)
{
	u64 now = ktime_get_ns();

	sums[ph] += now - *t;
	*t = now;
}

static void add_phases(u64 *total, const u64 *sums)
{
	int i;

	for (i = 0; i < NTT_HW_PHASES; i++)
		total[i] += sums[i];
}

/*
 * Writes the request registers, rings (start = next sequence number) and
 * polls done. Caller holds hw->lock. Returns 0, -ETIMEDOUT, -EINTR, -EIO
 * (card failure) or -EINVAL (the card refused the request's data).
 */
static int card_run(struct ntt_hw *hw, u64 win_off, u32 num_polys, u32 mode,
		    u64 *sums, u64 *t)
{
	u64 begin, now;
	u32 seq, status;
	bool spun = false;

	if (hw->wedged) {
		if (shm_read(hw, REG_DONE) != hw->seq)
			return -EBUSY;
		hw->wedged = false;
	}
	if (!card_present(hw))
		return -ENODEV;

	seq = hw->seq + 1;
	if (seq == 0)
		seq = 1;
	shm_write(hw, REG_REGION, 0);
	shm_write(hw, REG_OFFSET_LO, lower_32_bits(win_off));
	shm_write(hw, REG_OFFSET_HI, upper_32_bits(win_off));
	shm_write(hw, REG_MODE, mode);
	shm_write(hw, REG_NUM_POLYS, num_polys);
	/* Guest and host clocks differ: 0 tells the card to latch its own. */
	shm_write(hw, REG_RUNG_LO, 0);
	shm_write(hw, REG_RUNG_HI, 0);
	/* The card reads the registers after it sees start change. */
	wmb();
	shm_write(hw, REG_START, seq);
	hw->seq = seq;
	hw->stats.doorbells++;
	phase(sums, NTT_HW_PH_REGS, t);

	begin = *t;
	for (;;) {
		hw->stats.poll_reads++;
		if (shm_read(hw, REG_DONE) == seq)
			break;
		now = ktime_get_ns();
		if (now - begin > POLL_TIMEOUT_NS || fatal_signal_pending(current)) {
			hw->wedged = true;
			dev_warn_ratelimited(&hw->pdev->dev,
					     "request %u: no completion\n", seq);
			return now - begin > POLL_TIMEOUT_NS ? -ETIMEDOUT : -EINTR;
		}
		if (!spun && now - begin < POLL_SPIN_NS) {
			cpu_relax();
		} else {
			spun = true;
			usleep_range(5, 20);
		}
	}
	/* Results and status were written before done. */
	rmb();
	status = shm_read(hw, REG_STATUS);
	hw->stats.card_device_ns += shm_read(hw, REG_DEVICE_NS_LO) |
		(u64)shm_read(hw, REG_DEVICE_NS_HI) << 32;
	phase(sums, NTT_HW_PH_POLL, t);
	if (status != CARD_OK) {
		hw->stats.card_errors++;
		return status == CARD_FAILED ? -EIO : -EINVAL;
	}
	return 0;
}

/* NTT_HW_IOC_TRANSFORM: the design's per-call path. */
static long ntt_hw_transform(struct ntt_hw *hw, void __user *argp, u64 t0)
{
	u64 sums[NTT_HW_PHASES] = { 0 };
	struct ntt_hw_req req;
	void __user *ubuf;
	dma_addr_t dma;
	size_t len;
	void *buf;
	u64 t = t0;
	int ret;

	if (copy_from_user(&req, argp, sizeof(req)))
		return -EFAULT;
	phase(sums, NTT_HW_PH_ENTRY, &t);

	if (!mode_valid(req.mode) || !num_polys_valid(req.num_polys))
		return -EINVAL;
	if (!req.buf)
		return -EFAULT;
	if (req.buf % NTT_HW_BUF_ALIGN)
		return -EINVAL;
	ubuf = u64_to_user_ptr(req.buf);
	len = (size_t)req.num_polys * NTT_HW_POLY_BYTES;
	if (!access_ok(ubuf, len))
		return -EFAULT;
	if (mutex_lock_interruptible(&hw->lock))
		return -EINTR;
	phase(sums, NTT_HW_PH_CHECK, &t);

	/* The design allocates the coherent buffer per call. */
	buf = dma_alloc_coherent(&hw->pdev->dev, len, &dma, GFP_KERNEL);
	if (!buf) {
		ret = -ENOMEM;
		goto unlock;
	}
	hw->stats.allocs++;
	phase(sums, NTT_HW_PH_ALLOC, &t);

	if (copy_from_user(buf, ubuf, len)) {
		ret = -EFAULT;
		goto free;
	}
	hw->stats.user_copies++;
	hw->stats.user_bytes += len;
	phase(sums, NTT_HW_PH_COPY_IN, &t);

	/* ivshmem cannot reach guest RAM: stage the buffer in the window. */
	memcpy_toio(hw->shm + WINDOW_OFFSET + PERCALL_AREA * AREA_BYTES, buf, len);
	hw->stats.window_copies++;
	hw->stats.window_bytes += len;
	phase(sums, NTT_HW_PH_WIN_IN, &t);

	ret = card_run(hw, PERCALL_AREA * AREA_BYTES, req.num_polys, req.mode,
		       sums, &t);
	if (ret)
		goto free;

	memcpy_fromio(buf, hw->shm + WINDOW_OFFSET + PERCALL_AREA * AREA_BYTES, len);
	hw->stats.window_copies++;
	hw->stats.window_bytes += len;
	phase(sums, NTT_HW_PH_WIN_OUT, &t);

	if (copy_to_user(ubuf, buf, len)) {
		ret = -EFAULT;
		goto free;
	}
	hw->stats.user_copies++;
	hw->stats.user_bytes += len;
	hw->stats.percall_requests++;
	hw->stats.polys += req.num_polys;
	phase(sums, NTT_HW_PH_COPY_OUT, &t);
free:
	dma_free_coherent(&hw->pdev->dev, len, buf, dma);
unlock:
	if (ret == 0) {
		phase(sums, NTT_HW_PH_EXIT, &t);
		sums[NTT_HW_PH_TOTAL] = t - t0;
		add_phases(hw->stats.percall_ns, sums);
	}
	mutex_unlock(&hw->lock);
	return ret;
}

/* NTT_HW_IOC_POOL_SUBMIT: a request on the caller's mapped window area. */
static long ntt_hw_pool_submit(struct ntt_hw_file *f, void __user *argp, u64 t0)
{
	struct ntt_hw *hw = f->hw;
	u64 sums[NTT_HW_PHASES] = { 0 };
	struct ntt_hw_pool_req req;
	u64 t = t0;
	u64 len;
	int ret;

	if (copy_from_user(&req, argp, sizeof(req)))
		return -EFAULT;
	phase(sums, NTT_HW_PH_ENTRY, &t);

	if (!mode_valid(req.mode) || !num_polys_valid(req.num_polys))
		return -EINVAL;
	len = (u64)req.num_polys * NTT_HW_POLY_BYTES;
	if (req.offset % NTT_HW_POOL_ALIGN || req.offset > NTT_HW_POOL_BYTES ||
	    len > NTT_HW_POOL_BYTES - req.offset)
		return -EINVAL;
	if (mutex_lock_interruptible(&hw->lock))
		return -EINTR;
	/* No window area before mmap: nothing to name offsets in. */
	if (f->area < 0) {
		ret = -EINVAL;
		goto unlock;
	}
	phase(sums, NTT_HW_PH_CHECK, &t);

	ret = card_run(hw, (u64)f->area * AREA_BYTES + req.offset,
		       req.num_polys, req.mode, sums, &t);
	if (ret == 0) {
		hw->stats.pool_requests++;
		hw->stats.polys += req.num_polys;
		phase(sums, NTT_HW_PH_EXIT, &t);
		sums[NTT_HW_PH_TOTAL] = t - t0;
		add_phases(hw->stats.pool_ns, sums);
	}
unlock:
	mutex_unlock(&hw->lock);
	return ret;
}

static long ntt_hw_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct ntt_hw_file *f = file->private_data;
	struct ntt_hw *hw = f->hw;
	void __user *argp = (void __user *)arg;
	u64 t0 = ktime_get_ns();
	long ret;

	mutex_lock(&hw->lock);
	hw->stats.ioctls++;
	mutex_unlock(&hw->lock);

	switch (cmd) {
	case NTT_HW_IOC_TRANSFORM:
		ret = ntt_hw_transform(hw, argp, t0);
		break;
	case NTT_HW_IOC_POOL_SUBMIT:
		ret = ntt_hw_pool_submit(f, argp, t0);
		break;
	case NTT_HW_IOC_STATS:
		mutex_lock(&hw->lock);
		ret = copy_to_user(argp, &hw->stats, sizeof(hw->stats)) ?
			-EFAULT : 0;
		mutex_unlock(&hw->lock);
		return ret;
	case NTT_HW_IOC_STATS_RESET:
		mutex_lock(&hw->lock);
		memset(&hw->stats, 0, sizeof(hw->stats));
		mutex_unlock(&hw->lock);
		return 0;
	default:
		return -ENOTTY;
	}
	if (ret && ret != -EINTR) {
		mutex_lock(&hw->lock);
		hw->stats.rejected++;
		mutex_unlock(&hw->lock);
	}
	return ret;
}

static int ntt_hw_open(struct inode *inode, struct file *file)
{
	struct ntt_hw *hw = container_of(file->private_data, struct ntt_hw, misc);
	struct ntt_hw_file *f;

	f = kzalloc(sizeof(*f), GFP_KERNEL);
	if (!f)
		return -ENOMEM;
	f->hw = hw;
	f->area = -1;
	file->private_data = f;
	mutex_lock(&hw->lock);
	hw->stats.opens++;
	mutex_unlock(&hw->lock);
	return 0;
}

static int ntt_hw_release(struct inode *inode, struct file *file)
{
	struct ntt_hw_file *f = file->private_data;
	struct ntt_hw *hw = f->hw;

	/* Mappings hold the file, so none is left when release runs. */
	mutex_lock(&hw->lock);
	if (f->area >= 0)
		hw->area_used[f->area] = false;
	mutex_unlock(&hw->lock);
	kfree(f);
	return 0;
}

/*
 * The file's window area, taken on its first mmap and kept until close.
 * An area whose user slot still has a request of an earlier holder in flight
 * is not handed out: the card could still write into it. Caller holds
 * hw->lock. Returns 0 or -EBUSY.
 */
static int take_area(struct ntt_hw *hw, struct ntt_hw_file *f)
{
	bool slots = card_user_slots(hw);
	int i;

	if (f->area >= 0)
		return 0;
	for (i = 0; i < POOL_AREAS; i++) {
		if (!hw->area_used[i] && (!slots || user_slot_quiet(hw, i))) {
			hw->area_used[i] = true;
			f->area = i;
			return 0;
		}
	}
	return -EBUSY;
}

/*
 * mmap at offset 0: the file's window area, at most NTT_HW_POOL_BYTES.
 * mmap at NTT_HW_DOORBELL_MMAP: the same area's user slot, one page, when
 * the card serves user slots (-ENODEV otherwise). Both shared.
 */
static int ntt_hw_mmap(struct file *file, struct vm_area_struct *vma)
{
	struct ntt_hw_file *f = file->private_data;
	struct ntt_hw *hw = f->hw;
	unsigned long len = vma->vm_end - vma->vm_start;
	bool doorbell = vma->vm_pgoff == NTT_HW_DOORBELL_MMAP >> PAGE_SHIFT;
	resource_size_t at;
	int ret;

	if (!(vma->vm_flags & VM_SHARED))
		return -EINVAL;
	if (doorbell) {
		/* One user slot per page: nothing else may share the mapping. */
		if (len != NTT_HW_DOORBELL_BYTES || PAGE_SIZE != NTT_HW_DOORBELL_BYTES)
			return -EINVAL;
	} else if (vma->vm_pgoff != 0 || len > NTT_HW_POOL_BYTES) {
		return -EINVAL;
	}
	mutex_lock(&hw->lock);
	hw->stats.mmaps++;
	if (doorbell && !card_user_slots(hw)) {
		ret = -ENODEV;
		goto unlock;
	}
	ret = take_area(hw, f);
	if (ret)
		goto unlock;
	if (doorbell) {
		at = USER_SLOT(f->area);
		/* What the protocol fixes; start and done are the caller's. */
		shm_write(hw, at + USLOT_REGION, 0);
		shm_write(hw, at + USLOT_RUNG_LO, 0);
		shm_write(hw, at + USLOT_RUNG_HI, 0);
		shm_write(hw, at + USLOT_HOST_SLEEPING, 0);
	} else {
		at = WINDOW_OFFSET + (resource_size_t)f->area * AREA_BYTES;
	}
	/*
	 * Not vm_iomap_memory(): it takes vm_pgoff as an offset into the range,
	 * and the doorbell's vm_pgoff is only its name. The range is whole pages
	 * inside the BAR (both offsets are multiples of 4096, len was checked).
	 */
	ret = io_remap_pfn_range(vma, vma->vm_start,
				 (hw->shm_phys + at) >> PAGE_SHIFT, len,
				 vma->vm_page_prot);
unlock:
	mutex_unlock(&hw->lock);
	return ret;
}

static const struct file_operations ntt_hw_fops = {
	.owner		= THIS_MODULE,
	.open		= ntt_hw_open,
	.release	= ntt_hw_release,
	.unlocked_ioctl	= ntt_hw_ioctl,
	.compat_ioctl	= compat_ptr_ioctl,
	.mmap		= ntt_hw_mmap,
	.llseek		= noop_llseek,
};

static int ntt_hw_probe(struct pci_dev *pdev, const struct pci_device_id *id)
{
	struct ntt_hw *hw;
	int ret;

	mutex_lock(&ntt_hw_dev_lock);
	if (ntt_hw_dev) {
		mutex_unlock(&ntt_hw_dev_lock);
		return -EBUSY;
	}
	ret = pcim_enable_device(pdev);
	if (ret)
		goto out;
	ret = pcim_iomap_regions(pdev, BIT(IVSHMEM_SHMEM_BAR), DRV_NAME);
	if (ret)
		goto out;
	hw = devm_kzalloc(&pdev->dev, sizeof(*hw), GFP_KERNEL);
	if (!hw) {
		ret = -ENOMEM;
		goto out;
	}
	hw->pdev = pdev;
	hw->shm = pcim_iomap_table(pdev)[IVSHMEM_SHMEM_BAR];
	hw->shm_phys = pci_resource_start(pdev, IVSHMEM_SHMEM_BAR);
	hw->shm_len = pci_resource_len(pdev, IVSHMEM_SHMEM_BAR);
	if (hw->shm_len < SHM_BYTES) {
		dev_err(&pdev->dev, "shared memory of %llu bytes, need %u\n",
			(unsigned long long)hw->shm_len, SHM_BYTES);
		ret = -ENODEV;
		goto out;
	}
	/* The card's coherent buffers are ordinary 32-bit DMA memory. */
	ret = dma_set_mask_and_coherent(&pdev->dev, DMA_BIT_MASK(32));
	if (ret)
		goto out;
	mutex_init(&hw->lock);
	/* Continue the card's sequence, so a reload is not taken as done. */
	hw->seq = shm_read(hw, REG_START);

	hw->misc.minor = MISC_DYNAMIC_MINOR;
	hw->misc.name = DRV_NAME;
	hw->misc.fops = &ntt_hw_fops;
	hw->misc.parent = &pdev->dev;
	hw->misc.mode = 0666;
	ret = misc_register(&hw->misc);
	if (ret)
		goto out;
	pci_set_drvdata(pdev, hw);
	ntt_hw_dev = hw;
	dev_info(&pdev->dev, "/dev/%s: %llu bytes shared memory, card %s\n",
		 DRV_NAME, (unsigned long long)hw->shm_len,
		 card_present(hw) ? "present" : "not serving (yet)");
out:
	mutex_unlock(&ntt_hw_dev_lock);
	return ret;
}

static void ntt_hw_remove(struct pci_dev *pdev)
{
	struct ntt_hw *hw = pci_get_drvdata(pdev);

	mutex_lock(&ntt_hw_dev_lock);
	misc_deregister(&hw->misc);
	ntt_hw_dev = NULL;
	mutex_unlock(&ntt_hw_dev_lock);
}

static const struct pci_device_id ntt_hw_ids[] = {
	{ PCI_DEVICE(PCI_VENDOR_ID_REDHAT_QUMRANET, 0x1110) },
	{ }
};
MODULE_DEVICE_TABLE(pci, ntt_hw_ids);

static struct pci_driver ntt_hw_driver = {
	.name		= DRV_NAME,
	.id_table	= ntt_hw_ids,
	.probe		= ntt_hw_probe,
	.remove		= ntt_hw_remove,
};
module_pci_driver(ntt_hw_driver);

MODULE_DESCRIPTION("pqsig NTT accelerator card behind QEMU ivshmem");
MODULE_AUTHOR("pqsig");
MODULE_LICENSE("GPL");
