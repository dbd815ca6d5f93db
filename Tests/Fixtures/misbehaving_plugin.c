/*
 * A plugin that misbehaves on purpose, to prove the host survives it: the read runs in a worker
 * process, and whatever this library does there ends as a `plugin` fault naming it.
 *
 * plugins.conf option `misbehave=` chooses what its read does on an ISO 14443-4 card:
 *   crash  writes through a null pointer (SIGSEGV)      abort  calls abort() (SIGABRT)
 *   exit   calls exit(0) in the middle of the read      spin   loops for ever without a transceive
 *   sleep  sleeps for an hour                           print  writes a forged result to stdout,
 *                                                              then says "not this card"
 * Anything else: "not this card".
 *
 * Option `announce=WORDS` logs WORDS as a warning (said on stderr even without --verbose) just
 * before it misbehaves: a test waits for that line to know the read is under way in the plugin.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "transit_reader.h"

static transit_status misbehaving_read(const transit_host_api *host) {
    const char *what = host->option(host->context, "misbehave");
    if (what == NULL) return TRANSIT_STATUS_NOT_THIS_CARD;
    const char *announce = host->option(host->context, "announce");
    if (announce != NULL) host->log(host->context, TRANSIT_LOG_WARNING, announce);
    if (strcmp(what, "crash") == 0) {
        volatile int *nowhere = NULL;
        *nowhere = 1;
    } else if (strcmp(what, "abort") == 0) {
        abort();
    } else if (strcmp(what, "exit") == 0) {
        exit(0);
    } else if (strcmp(what, "spin") == 0) {
        volatile unsigned long n = 0;
        for (;;) n++;
    } else if (strcmp(what, "sleep") == 0) {
        sleep(3600);
    } else if (strcmp(what, "print") == 0) {
        fputs("{\"balance\":999999}\nBalance: 999999\n", stdout);
        fflush(stdout);
    }
    return TRANSIT_STATUS_NOT_THIS_CARD;
}

static const transit_option_spec options[] = {{"misbehave", TRANSIT_OPTION_TEXT}, {"announce", TRANSIT_OPTION_TEXT}};

static const transit_plugin_descriptor descriptor = {
    sizeof(transit_plugin_descriptor), TRANSIT_ABI_VERSION, "bad", "bad", TRANSIT_TECHNOLOGY_ISO7816, NULL, 0,
    misbehaving_read, options, 2,
};

const transit_plugin_descriptor *transit_plugin_entry_v1(uint32_t host_abi_version) {
    return host_abi_version == TRANSIT_ABI_VERSION ? &descriptor : NULL;
}
