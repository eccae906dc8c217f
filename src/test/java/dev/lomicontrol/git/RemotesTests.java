package dev.lomicontrol.git;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Credential redaction of single URLs and of URLs inside error text. */
class RemotesTests {

    @Test
    void userinfoOfEverySchemeIsRedacted() {
        assertThat(Remotes.redact("https://user:token@example.com/r.git")).isEqualTo("https://***@example.com/r.git");
        assertThat(Remotes.redact("ssh://git:pw@host:22/r.git")).isEqualTo("ssh://***@host:22/r.git");
        assertThat(Remotes.redact("https://example.com/a@b.git")).isEqualTo("https://example.com/a@b.git");
        assertThat(Remotes.redact("git@example.com:team/r.git")).isEqualTo("git@example.com:team/r.git");
    }

    @Test
    void urlsInsideErrorTextAreRedacted() {
        assertThat(Remotes.redactText("https://u:t0k@h/x: not authorized; retry http://k@g/y"))
                .isEqualTo("https://***@h/x: not authorized; retry http://***@g/y");
    }
}
