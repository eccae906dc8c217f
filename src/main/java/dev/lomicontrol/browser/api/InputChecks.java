package dev.lomicontrol.browser.api;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import java.nio.charset.StandardCharsets;
import tools.jackson.databind.JsonNode;

/** The checks of browser inputs that the binder's annotations cannot say (INVALID_ARGUMENT when one fails). */
final class InputChecks {

    private InputChecks() {}

    /** A text of at most 16 KiB of UTF-8 (fill). */
    static void utf8AtMost16KiB(String name, String text) {
        if (text.getBytes(StandardCharsets.UTF_8).length > 16 * 1024) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, name + " is more than 16 KiB of UTF-8");
        }
    }

    /** A base name of 1-255 bytes of UTF-8, not {@code .} or {@code ..} (upload). */
    static void baseName(String name, String fileName) {
        if (fileName.equals(".") || fileName.equals("..") || fileName.getBytes(StandardCharsets.UTF_8).length > 255) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, name + " is a base name of 1-255 bytes, not . or ..");
        }
    }

    /** A JSON number that is finite (the reference's f64 deltas, bound as any JSON value). */
    static void finite(String name, JsonNode value) {
        if (!value.isNumber() || !Double.isFinite(value.asDouble())) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, name + " must be a finite number");
        }
    }
}
