// C ABI of the Verilator harness of hw/falcon/rtl/falcon_samplerz.v (crates/pqsig-hwsim,
// module `samplerz`). The harness plays the host: it writes the windows into the
// device's window RAM, issues the requests one after the other and collects the results.
#pragma once
#include <stddef.h>
#include <stdint.h>
#ifdef __cplusplus
extern "C" {
#endif

#define FALCON_SZ_OK 0
#define FALCON_SZ_EBADARG 1
#define FALCON_SZ_ETIMEOUT 2

#define FALCON_SZ_WINDOW 512

typedef struct FalconSz FalconSz;

// Result of one batch. Cycles count device clock cycles from each request's start to its
// done pulse, without the cycles the device waited for the host to write a window
// (stall_cycles) and without the host's window writes before the batch (load_cycles,
// one 64-bit word per cycle).
typedef struct {
  uint32_t need_more;  // 1: the supplied windows ran out, outputs void
  uint32_t refills;    // windows of `ahead` entered
  uint32_t pos;        // read position in the window the stream is in now
  uint64_t cycles;
  uint64_t stall_cycles;
  uint64_t load_cycles;
} FalconSzResult;

// A device (its own Verilator context). NULL on allocation failure.
FalconSz *falcon_sz_new(void);
void falcon_sz_free(FalconSz *h);

// One batch: requests (mu[i], isigma[i]) with the degree's sigma_min over the stream
// (window, pos) followed by n_ahead windows in `ahead` (n_ahead * 512 bytes). out[i],
// attempts[i] (rejection-loop iterations) and req_cycles[i] for each request (attempts
// and req_cycles may be NULL). Requires pos <= 512 and count >= 1.
int falcon_sz_serve(FalconSz *h, uint64_t sigma_min, const uint64_t *mu,
                    const uint64_t *isigma, size_t count, const uint8_t *window, uint32_t pos,
                    const uint8_t *ahead, size_t n_ahead, int32_t *out, uint32_t *attempts,
                    uint64_t *req_cycles, FalconSzResult *res);

#ifdef __cplusplus
}
#endif
