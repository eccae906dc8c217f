package dev.lomicontrol.broker;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import java.util.regex.Pattern;

/** Parsing and checking the decimal {@code expectedRevision} of layout mutations. */
final class Revisions {

    private static final Pattern DECIMAL = Pattern.compile("0|[1-9][0-9]{0,17}");

    private Revisions() {}

    static long expected(Arguments args) {
        String value = args.requiredString("expectedRevision");
        if (!DECIMAL.matcher(value).matches()) {
            throw Arguments.invalid("expectedRevision must be the decimal domainRevision from lomi_workspace_list or lomi_panel_list");
        }
        return Long.parseLong(value);
    }

    static void require(long expected, long current) {
        if (expected != current) {
            throw new LomiException(ErrorCode.REVISION_CONFLICT, "the layout changed: expectedRevision " + expected + " but domainRevision is now "
                    + current + "; list again and retry with a new requestKey");
        }
    }
}
