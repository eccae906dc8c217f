package dev.lomicontrol.ipc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import java.nio.charset.StandardCharsets;
import org.assertj.core.api.AbstractThrowableAssert;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;

/**
 * The refusal every IPC reader answers a frame it will not read with: a {@link LomiException} coded
 * INVALID_ARGUMENT, its message left to the caller to check.
 */
final class Refused {

    private Refused() {}

    /** Asserts that {@code read} throws a LomiException coded INVALID_ARGUMENT. */
    static AbstractThrowableAssert<?, ? extends Throwable> asInvalidArgument(ThrowingCallable read) {
        return assertThatThrownBy(read)
                .isInstanceOfSatisfying(
                        LomiException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT));
    }

    /** A test's frame as the bytes on the wire (UTF-8). */
    static byte[] bytes(String frame) {
        return frame.getBytes(StandardCharsets.UTF_8);
    }
}
