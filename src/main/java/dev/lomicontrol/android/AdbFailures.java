package dev.lomicontrol.android;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import java.time.Duration;
import java.util.Locale;

/**
 * The adb server's refusals and the bridge's time limits as error codes, in one place: a device
 * the server does not know is TARGET_NOT_FOUND, an unauthorized one SCOPE_DENIED (the user has to
 * allow this computer on the device), an offline one TARGET_BUSY, any other refusal
 * UNSUPPORTED_CAPABILITY with the server's reason; a call past its deadline or a silent server
 * DEADLINE_EXCEEDED.
 */
final class AdbFailures {

    private AdbFailures() {}

    static LomiException refused(String what, String reason) {
        String r = reason.isBlank() ? "no reason given" : reason.strip();
        String lower = r.toLowerCase(Locale.ROOT);
        if (lower.contains("unauthorized")) {
            return new LomiException(
                    ErrorCode.SCOPE_DENIED,
                    what + ": the device has not allowed this computer yet (adb: " + r
                            + "); ask the user to accept the debugging prompt on the device, then call again");
        }
        if (lower.contains("not found") || lower.contains("no devices")) {
            return new LomiException(
                    ErrorCode.TARGET_NOT_FOUND,
                    what + ": adb does not see that device (" + r + "); list the devices again");
        }
        if (lower.contains("offline")) {
            return new LomiException(
                    ErrorCode.TARGET_BUSY,
                    what + ": the device is offline (" + r + "); wait for it to come back, then call again");
        }
        return new LomiException(ErrorCode.UNSUPPORTED_CAPABILITY, what + ": the adb server refused: " + r);
    }

    static LomiException deadline(String what) {
        return new LomiException(
                ErrorCode.DEADLINE_EXCEEDED, what + " did not finish before its deadline; nothing more is sent");
    }

    static LomiException stalled(String what, Duration idle) {
        return new LomiException(
                ErrorCode.DEADLINE_EXCEEDED,
                what + ": the adb server or device sent nothing for " + idle.toMillis() + " ms; the call was given up");
    }
}
