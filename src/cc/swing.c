/*
 * swing.c -- SWING's PFC relay decision (swing.h).
 */
#include "swing.h"

#include <string.h>

void swing_init(struct swing_relay *r)
{
    memset(r, 0, sizeof *r);
}

/* Send what the two reasons now want, if it differs from what L was told. */
static enum swing_action settle(struct swing_relay *r)
{
    uint8_t want = r->down || r->own;
    if (want == r->sent)
        return SWING_NONE;
    r->sent = want;
    if (want) {
        r->relayed_pause++;
        return SWING_PAUSE;
    }
    r->relayed_resume++;
    return SWING_RESUME;
}

enum swing_action swing_on_down(struct swing_relay *r, int on)
{
    r->down = on != 0;
    return settle(r);
}

enum swing_action swing_on_own(struct swing_relay *r, int on)
{
    if (on && !r->own)
        r->own_xoff++;
    r->own = on != 0;
    return settle(r);
}

uint64_t swing_relay_buffer(uint64_t rate_bps, uint64_t delay_ps, uint64_t frame_wire_bytes, uint64_t slack)
{
    __extension__ unsigned __int128 rtt = (unsigned __int128)(rate_bps / 8) * delay_ps * 2 / 1000000000000ull;
    return (uint64_t)rtt + 2 * frame_wire_bytes + slack;
}
