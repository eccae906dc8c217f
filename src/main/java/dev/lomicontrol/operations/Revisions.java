package dev.lomicontrol.operations;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;

/** Checking the {@code expectedRevision} of layout mutations against the current {@code domainRevision}. */
public final class Revisions {

    private Revisions() {}

    public static void require(long expected, long current) {
        if (expected != current) {
            throw new LomiException(
                    ErrorCode.REVISION_CONFLICT,
                    "the layout changed: expectedRevision " + expected + " but domainRevision is now " + current
                            + "; list again and retry with a new requestKey");
        }
    }
}
