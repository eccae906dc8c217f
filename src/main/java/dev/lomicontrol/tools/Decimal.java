package dev.lomicontrol.tools;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.core.WireString;

/**
 * An unsigned 63-bit number as a decimal string — revisions, cursors, sequences — so no client
 * loses precision: {@code 0} or up to 19 digits without a leading zero, at most {@link Long#MAX_VALUE}.
 */
@WireString(maxLength = 19, pattern = "0|[1-9][0-9]{0,18}")
public record Decimal(String value) {

    public Decimal {
        if (value.length() == 19 && value.compareTo(Long.toString(Long.MAX_VALUE)) > 0) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, "must be at most " + Long.MAX_VALUE);
        }
    }

    public static Decimal of(long value) {
        return new Decimal(Long.toString(value));
    }

    public long asLong() {
        return Long.parseLong(value);
    }

    @Override
    public String toString() {
        return value;
    }
}
