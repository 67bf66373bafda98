/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target: arbitrary bytes as a VM/370 monitor tape (plain blocks),
 * fed in two pieces (so that buffering across feeds is exercised), then the
 * same bytes with the format detected (tape or AWSTAPE paths included).
 */
#include <stddef.h>
#include <stdint.h>

#include "source.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void on_record(void *ctx, const struct zd_record *r)
{
	/* Touch every byte the decoder hands out: ASan checks the views. */
	volatile uint8_t x = 0;
	for (size_t i = 0; i < r->rec.n; i++)
		x ^= r->rec.p[i];
	(void)ctx;
	(void)x;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct zd_handler h = {NULL, on_record, NULL, NULL};
	struct zd_stream *s = zd_stream_new(ZD_FMT_TAPE, &h);
	if (!s)
		return 0;
	size_t half = size / 2;
	zd_stream_feed(s, data, half);
	zd_stream_feed(s, data + half, size - half);
	zd_stream_finish(s);
	zd_stream_free(s);
	s = zd_stream_new(ZD_FMT_AWSTAPE, &h);
	if (!s)
		return 0;
	zd_stream_feed(s, data, size);
	zd_stream_finish(s);
	zd_stream_free(s);
	return 0;
}
