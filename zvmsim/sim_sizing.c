/* SPDX-License-Identifier: MIT */
/*
 * What the system must fit in, decided once when it is built: real storage
 * that never exceeds what z/VM supports (and what SYTRSG's fullword frame
 * counts can say) however many guests share it, and a DCSS sized so that
 * every sample set fits its area.  Separate because both are arithmetic on
 * the configuration, apart from how the model moves.
 */
#include "sim_model.h"

/*
 * Real storage.  Each guest draws 40 MB to 2 GB resident, and half of the
 * pageable frames are in use.  That does not scale: 10,000 such guests would
 * want 20 TB, more than the 4 TB of central storage z/VM 7.3 and 7.4 support
 * (IBM, "Control program support", LinuxONE/IBM Z documentation) and more
 * frames than SYTRSG_RSAPGABL, a fullword, can count (doc/facts/cp-records.md 6):
 * written as 32 bits the count wrapped below RSAAVAIL and the storage law
 * failed.  A big system overcommits instead: when the guests would need more,
 * their resident pages are scaled down to share 4 TB, each keeping at least
 * SIM_MIN_RESIDENT.  Systems that fit draw exactly as before.
 */
#define SIM_REAL_MAX  (UINT64_C(1) << 30) /* frames: 4 TB */
#define SIM_CP_FRAMES 200000              /* pageable frames beyond twice the guests' */

void sim_real_storage(struct sim_sys *s)
{
        uint64_t sum = 0;
        unsigned n = s->cfg.guests;
        for (unsigned i = 0; i < n; i++)
                sum += s->guest[i].resident;
        uint64_t budget = (SIM_REAL_MAX - SIM_CP_FRAMES) / 2;
        if (2 * sum + SIM_CP_FRAMES > SIM_REAL_MAX) {
                /* Each keeps the minimum; the rest of the budget goes by the drawn sizes. */
                uint64_t spread = budget - (uint64_t)n * SIM_MIN_RESIDENT;
                uint64_t total = 0;
                for (unsigned i = 0; i < n; i++) {
                        struct m_guest *g = &s->guest[i];
                        g->resident = SIM_MIN_RESIDENT +
                                      (uint64_t)((unsigned __int128)g->resident * spread / sum);
                        g->wss = g->resident * 9 / 10;
                        total += g->resident;
                }
                sum = total;
        }
        s->pgabl = 2 * sum + SIM_CP_FRAMES;
}

/*
 * DCSS size.  The default 4096 pages (16 MB) give a sample area of 2555
 * pages, about 10 MB, which the sample set of some 20,000 guests outgrows.
 * Unless --dcss-pages pins the size, the DCSS grows until the configuration
 * and sample areas (1/8 and 5/8 of it, sim_dcss_init) hold their sets, as an
 * installation sizes MONDCSS for its system (the default since z/VM 6.2 is
 * 16384 pages, doc/facts/monitor-stream.md 5.4).  The size comes from the records the
 * configuration implies, not from building a set: an upper bound on the
 * frames (struct sim_fit) so that nothing is lost, plus room for monwriter
 * buffers (255 by default, up to a frame each) and an eighth to spare.
 */
#define MW_FRAMES 256u

uint32_t sim_sys_dcss_need(const struct sim_sys *s)
{
        struct sim_fit config = {0}, sample = {0};
        sim_cp_fit(s, &config, &sample);
        for (unsigned i = 0; i < s->cfg.linux_guests; i++)
                sim_lx_fit(s, &s->linux[i], &sample);
        uint64_t cf = sim_fit_frames(&config) + MW_FRAMES;
        uint64_t sf = sim_fit_frames(&sample) + MW_FRAMES;
        sf += sf / 8;
        /* Configuration area rest / 8, sample area rest / 8 * 5 (sim_dcss_init). */
        uint64_t eighth = cf > (sf + 4) / 5 ? cf : (sf + 4) / 5;
        uint64_t pages = 4 + 8 * eighth;
        pages = (pages + 255) / 256 * 256;
        if (pages < 4096)
                pages = 4096;
        if (pages > SIM_DCSS_MAX_PAGES)
                pages = SIM_DCSS_MAX_PAGES;
        return (uint32_t)pages;
}
