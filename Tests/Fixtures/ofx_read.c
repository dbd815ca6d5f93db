/* What libofx (the OFX reader of GnuCash, KMyMoney and HomeBank) reads of an OFX file: one line a
 * transaction, "TYPE|AMOUNT|FITID|NAME|MEMO", TYPE the libofx transaction type's number (OFX_CREDIT
 * 0, OFX_DEBIT 1, OFX_OTHER 16 in libofx.h's TransactionType). Built by the report tests with
 * gcc … -lofx (Debian's libofx-dev). Debian ships no ofxdump; this is its transaction part. */
#include <libofx/libofx.h>
#include <stdio.h>

static int transaction(const struct OfxTransactionData data, void *unused) {
    (void)unused;
    printf("%d|%.2f|%s|%s|%s\n", data.transactiontype_valid ? (int)data.transactiontype : -1,
           data.amount_valid ? data.amount : 0.0, data.fi_id_valid ? data.fi_id : "",
           data.name_valid ? data.name : "", data.memo_valid ? data.memo : "");
    return 0;
}

int main(int argc, char **argv) {
    if (argc != 2) { fprintf(stderr, "usage: ofx_read FILE\n"); return 2; }
    LibofxContextPtr context = libofx_get_new_context();
    ofx_set_transaction_cb(context, transaction, NULL);
    int rc = libofx_proc_file(context, argv[1], AUTODETECT);
    libofx_free_context(context);
    return rc == 0 ? 0 : 1;
}
