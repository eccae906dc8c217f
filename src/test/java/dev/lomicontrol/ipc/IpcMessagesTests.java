package dev.lomicontrol.ipc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import java.util.Optional;
import java.util.Random;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The helper's side of pairing reads and writes its messages without a mapper (ADR 0015): the bytes the wire's
 * mapper writes, and readers never more lenient than the mapper on mutated frames.
 */
class IpcMessagesTests {

    static final String MUTATIONS = " {}[]\":,\\0a1-nul\u00ff";

    @Test
    void anEnrollmentIsWrittenAsTheMapperWritesIt() {
        Enrollment enrollment = new Enrollment(1, "0f1e2d3c", "claude-code 2.1 \"quoted\" żółw", "TUlJQ0…==");

        assertThat(enrollment.toFrame()).isEqualTo(IpcJson.write(enrollment));
        assertThat(IpcJson.read(enrollment.toFrame(), Enrollment.class)).isEqualTo(enrollment);
    }

    @Test
    void aWelcomeAndAnOutcomeAreReadAsTheMapperReadsThem() {
        Welcome welcome = new Welcome(1, "0f1e2d3c", "TUlJQ0…==", "pr-7");
        PairingOutcome outcome = new PairingOutcome(PairingOutcome.APPROVED, "approved; WARNING: no sandbox");

        assertThat(Welcome.read(IpcJson.write(welcome))).isEqualTo(welcome);
        assertThat(Welcome.isWelcome(IpcJson.write(welcome))).isTrue();
        assertThat(PairingOutcome.read(IpcJson.write(outcome))).isEqualTo(outcome);
        assertThat(Welcome.isWelcome(IpcJson.write(outcome))).isFalse();
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "{\"outcome\":\"approved\"}",
                "{\"outcome\":\"approved\",\"message\":\"m\",\"extra\":1}",
                "{\"outcome\":\"approved\",\"outcome\":\"denied\",\"message\":\"m\"}",
                "{\"outcome\":\"approved\",\"message\":null}",
                "{\"outcome\":7,\"message\":\"m\"}",
                "{\"outcome\":\"approved\",\"message\":\"m\"} {}",
                "[\"approved\",\"m\"]",
                ""
            })
    void malformedOutcomesAreRefusedAsInvalidArguments(String frame) {
        Refused.asInvalidArgument(() -> PairingOutcome.read(Refused.bytes(frame)))
                .hasMessageStartingWith("malformed PairingOutcome");
    }

    @Test
    void theReadersAcceptNothingTheStrictMapperRefuses() {
        Random random = new Random(20261205L);
        int accepted = 0;
        for (int round = 0; round < 10_000; round++) {
            accepted += agrees(
                    random,
                    IpcJson.write(new Welcome(1, "i" + round, "cert", "pr-" + round)),
                    Welcome::read,
                    frame -> IpcJson.read(frame, Welcome.class));
            accepted += agrees(
                    random,
                    IpcJson.write(new PairingOutcome("denied", "no " + round)),
                    PairingOutcome::read,
                    frame -> IpcJson.read(frame, PairingOutcome.class));
        }
        assertThat(accepted).as("some mutations stay valid messages").isPositive();
    }

    private static <T> int agrees(Random random, byte[] valid, Function<byte[], T> ours, Function<byte[], T> mapper) {
        byte[] frame = valid.clone();
        for (int flips = 1 + random.nextInt(3); flips > 0; flips--) {
            frame[random.nextInt(frame.length)] = (byte) MUTATIONS.charAt(random.nextInt(MUTATIONS.length()));
        }
        Optional<T> read;
        try {
            read = Optional.of(ours.apply(frame));
        } catch (LomiException refused) {
            assertThat(refused.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT);
            return 0;
        }
        assertThat(mapper.apply(frame)).isEqualTo(read.get());
        return 1;
    }
}
