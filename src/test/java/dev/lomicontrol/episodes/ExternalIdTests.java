package dev.lomicontrol.episodes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The client's own episode name: one line of 1-256 characters, never blank. */
class ExternalIdTests {

    @ParameterizedTest
    @ValueSource(
            strings = {
                "",
                " ",
                "\t\t",
                "line\nbreak",
                "carriage\rreturn",
                "nul\u0000",
                "bell\u0007",
                "del\u007f",
                "sep\u2028arator",
                "lone\ud800"
            })
    void blankMultiLineAndControlCharacterIdsAreRefused(String value) {
        assertThatThrownBy(() -> new ExternalId(value))
                .isInstanceOfSatisfying(
                        LomiException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT));
    }

    @Test
    void idsAreLimitedTo256CharactersCountedAsCodePoints() {
        assertThat(new ExternalId("x".repeat(256)).value()).hasSize(256);
        assertThat(new ExternalId("\uD83D\uDE00".repeat(256)).value()).hasSize(512);
        assertThatThrownBy(() -> new ExternalId("x".repeat(257))).isInstanceOf(LomiException.class);
        assertThat(new ExternalId("claude:thread/7f3a 2026-12-01").value()).isEqualTo("claude:thread/7f3a 2026-12-01");
    }
}
