package dev.lomicontrol.android;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link ShellQuote} checked by the real {@code /bin/sh} of this machine: each quoted word, hostile
 * or random, comes back from {@code printf '%s\0'} as exactly itself, and nothing it contains runs.
 */
class ShellQuoteTests {

    static final List<String> HOSTILE = List.of(
            "",
            " ",
            "plain",
            "two words",
            "'",
            "''",
            "'\\''",
            "\"",
            "\\",
            "\\'",
            "$(touch pwned)",
            "`touch pwned`",
            "; touch pwned",
            "&& touch pwned",
            "| touch pwned",
            "> pwned",
            "$HOME",
            "${HOME}",
            "$((1+1))",
            "*",
            "?",
            "[a-z]",
            "~",
            "~root",
            "!",
            "#comment",
            "-n",
            "--",
            "%s %d",
            "a\nb",
            "tab\there",
            "\r\n",
            "héllo wörld 😀 中文",
            "\u0001\u001b[31m",
            "x'; touch pwned; echo '",
            "{a,b}");

    @TempDir
    Path dir;

    @Test
    void everyHostileWordReachesTheShellAsItselfAndRunsNothing() throws Exception {
        assertThat(throughSh(HOSTILE)).containsExactlyElementsOf(HOSTILE);
        assertThat(dir.resolve("pwned")).doesNotExist();
    }

    @Test
    void randomWordsOfShellSpecialCharactersSurviveTheShell() throws Exception {
        Random random = new Random(20261206);
        String alphabet = "ab '\"\\$`;&|<>(){}[]*?~!#%\n\t=-+,.:/@^";
        List<String> words = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            StringBuilder word = new StringBuilder();
            for (int n = random.nextInt(12); n > 0; n--) {
                word.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            words.add(word.toString());
        }
        assertThat(throughSh(words)).containsExactlyElementsOf(words);
        assertThat(dir.resolve("pwned")).doesNotExist();
    }

    @Test
    void aCommandIsItsQuotedWordsAndNeedsAProgram() {
        assertThat(ShellQuote.command(List.of("input", "text", "it's"))).isEqualTo("'input' 'text' 'it'\\''s'");
        assertThatThrownBy(() -> ShellQuote.command(List.of()))
                .isInstanceOfSatisfying(
                        LomiException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT));
    }

    @Test
    void aNulCharacterIsRefusedBecauseItWouldEndTheAdbRequest() {
        assertThatThrownBy(() -> ShellQuote.quote("a\0b"))
                .isInstanceOfSatisfying(
                        LomiException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT));
    }

    /** Runs {@code printf '%s\0' <quoted words>} in /bin/sh (in {@link #dir}) and splits its output at the NULs. */
    private List<String> throughSh(List<String> words) throws IOException, InterruptedException {
        List<String> argv = new ArrayList<>(List.of("printf", "%s\\0"));
        argv.addAll(words);
        Process sh = new ProcessBuilder("/bin/sh", "-c", ShellQuote.command(argv))
                .directory(dir.toFile())
                .redirectErrorStream(true)
                .start();
        byte[] out = sh.getInputStream().readAllBytes();
        assertThat(sh.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(sh.exitValue()).as(new String(out, StandardCharsets.UTF_8)).isZero();
        String all = new String(out, StandardCharsets.UTF_8);
        assertThat(all).endsWith("\0");
        return Arrays.asList(all.substring(0, all.length() - 1).split("\0", -1));
    }

    static {
        assertThat(Files.isExecutable(Path.of("/bin/sh"))).isTrue();
    }
}
