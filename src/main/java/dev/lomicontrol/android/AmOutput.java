package dev.lomicontrol.android;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import java.util.List;

/** Reads what {@code am start -W} printed (both streams): delivered, refused, or unknown. */
final class AmOutput {

    private AmOutput() {}

    /** {@code ok} or {@code timeout} when am reports the intent delivered; otherwise the failure it reports. */
    static String status(String component, String output) {
        List<String> lines =
                output.lines().map(String::strip).filter(l -> !l.isEmpty()).toList();
        for (String line : lines) {
            if (line.startsWith("Error:")
                    || line.startsWith("Security exception:")
                    || line.startsWith("Exception occurred while executing")
                    || line.startsWith("java.lang.")) {
                throw refused(component, line);
            }
        }
        for (String line : lines) {
            if (line.startsWith("Status:")) {
                String status = line.substring("Status:".length()).strip();
                if (status.equals("ok") || status.equals("timeout")) {
                    return status;
                }
                throw new LomiException(
                        ErrorCode.UNSUPPORTED_CAPABILITY, "am start " + component + " answered " + line);
            }
        }
        throw new LomiException(
                ErrorCode.OUTCOME_UNKNOWN,
                "am start " + component + " printed neither Status: nor Error:"
                        + (lines.isEmpty() ? " (nothing)" : " (" + lines.get(lines.size() - 1) + ")")
                        + "; whether the intent was delivered is unknown");
    }

    private static LomiException refused(String component, String line) {
        boolean missing = line.contains("does not exist") || line.contains("unable to resolve Intent");
        return new LomiException(
                missing ? ErrorCode.TARGET_NOT_FOUND : ErrorCode.UNSUPPORTED_CAPABILITY,
                "the device did not deliver the intent for " + component + ": " + line);
    }
}
