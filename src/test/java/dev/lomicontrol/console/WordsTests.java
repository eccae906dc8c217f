package dev.lomicontrol.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Console lines split like a shell would, and argv joined back without losing a character. */
class WordsTests {

    @Test
    void aLogNamesTheCommandButNeverWhatTheAdminTyped() {
        assertThat(Words.commandOf("terminal keys pnl-1 736563726574")).isEqualTo("terminal keys pnl-1");
        assertThat(Words.commandOf("  status ")).isEqualTo("status");
        assertThat(Words.commandOf("chat say c1 \u001b]52;c;x\u0007")).isEqualTo("chat say c1");
        assertThat(Words.commandOf("x\u001b[2J y")).doesNotContain("\u001b");
    }

    @Test
    void quotesAndEscapesGroupWords() {
        assertThat(Words.split("  ledger reconcile abc --note \"it's \\\"done\\\"\"  "))
                .containsExactly("ledger", "reconcile", "abc", "--note", "it's \"done\"");
        assertThat(Words.split("project add '/tmp/a b'/c\\ d")).containsExactly("project", "add", "/tmp/a b/c d");
        assertThat(Words.split("")).isEmpty();
        assertThatThrownBy(() -> Words.split("status 'open"))
                .isInstanceOf(UsageException.class)
                .hasMessageContaining("unterminated");
    }

    @Test
    void joiningArgumentsRoundTripsEveryCharacter() {
        List<String> args = List.of(
                "ledger",
                "reconcile",
                "--note",
                "it's a \"note\" with $HOME and \\ and tabs\t",
                "",
                "plain-word_1.2,x=y");
        assertThat(Words.split(Words.join(args))).isEqualTo(args);
        assertThat(Words.join(List.of("pairing", "list"))).isEqualTo("pairing list");
    }

    @Test
    void completionKeepsTheWordUnderTheCursor() {
        assertThat(Words.splitForCompletion("pairing ap")).containsExactly("pairing", "ap");
        assertThat(Words.splitForCompletion("pairing ")).containsExactly("pairing", "");
        assertThat(Words.splitForCompletion("")).containsExactly("");
    }
}
