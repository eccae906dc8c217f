package dev.lomicontrol.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lomicontrol.LomiControl;
import dev.lomicontrol.ipc.Envelope;
import dev.lomicontrol.ledger.OperationError;
import dev.lomicontrol.testing.ChildJvm;
import java.util.List;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The one check behind every encoded error (issue 39): a strict run — every test JVM, and the broker
 * and helper JVMs the tests start — fails on an error without a message; a production run answers
 * the code's next step instead, never null or blank.
 */
class ErrorMessagesTests {

    @Test
    void theBuildRunsTheTestsStrictly() {
        assertThat(ErrorMessages.strict())
                .as("surefire and failsafe set -D%s=true for the test JVM", ErrorMessages.STRICT_PROPERTY)
                .isTrue();
    }

    @Test
    void theBrokerAndHelperJvmsTheTestsStartAreStrictToo() {
        assertThat(ChildJvm.builder(LomiControl.class, List.of("--mcp")).command())
                .contains("-D" + ErrorMessages.STRICT_PROPERTY + "=true");
    }

    @Test
    void aStrictRunFailsLoudlyOnANullOrBlankMessageAtEveryEncodingPoint() {
        String nothing = nullString();
        assertThatThrownBy(() -> new LomiException(ErrorCode.INVALID_ARGUMENT, nothing))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("INVALID_ARGUMENT error was encoded with a null message");
        assertThatThrownBy(() -> Envelope.error(ErrorCode.TARGET_NOT_FOUND, " "))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("TARGET_NOT_FOUND error was encoded with an empty message");
        assertThatThrownBy(() -> new OperationError(ErrorCode.SCOPE_DENIED, ""))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("SCOPE_DENIED error was encoded with an empty message");
    }

    @Test
    void outsideAStrictRunAMissingMessageBecomesTheCodesNextStep() {
        String nothing = nullString();
        String message = lenient(() -> Envelope.error(ErrorCode.STALE_SNAPSHOT, nothing)
                .path("message")
                .asString());
        assertThat(message).isEqualTo(ErrorCode.STALE_SNAPSHOT.nextStep());
        assertThat(lenient(() -> new LomiException(ErrorCode.TARGET_BUSY, "").getMessage()))
                .isEqualTo(ErrorCode.TARGET_BUSY.nextStep());
        assertThat(lenient(() -> new OperationError(ErrorCode.DEADLINE_EXCEEDED, nothing).message()))
                .isEqualTo(ErrorCode.DEADLINE_EXCEEDED.nextStep());
    }

    @Test
    void aMessageThatSaysSomethingIsKeptAsItWasGiven() {
        assertThat(Envelope.error(ErrorCode.INVALID_ARGUMENT, "ref e12 is a label; fill the field it labels")
                        .path("message")
                        .asString())
                .isEqualTo("ref e12 is a label; fill the field it labels");
    }

    @ParameterizedTest
    @EnumSource(ErrorCode.class)
    void everyCodesNextStepIsOneSentenceThatSaysWhatToDo(ErrorCode code) {
        String step = code.nextStep();
        assertThat(step).isNotBlank().doesNotEndWith(".").contains("; ");
        assertThat(step.split("; ")).as("what was wrong; what to do next").hasSizeGreaterThanOrEqualTo(2);
    }

    /** Runs {@code body} as a production JVM would (the property is read on each check). */
    private static <T> T lenient(Supplier<T> body) {
        String before = System.getProperty(ErrorMessages.STRICT_PROPERTY, "false");
        System.setProperty(ErrorMessages.STRICT_PROPERTY, "false");
        try {
            return body.get();
        } finally {
            System.setProperty(ErrorMessages.STRICT_PROPERTY, before);
        }
    }

    /** A null the compiler cannot see (what an unannotated {@code Throwable.getMessage()} may answer). */
    private static String nullString() {
        @Nullable String none = null;
        return (String) none;
    }
}
