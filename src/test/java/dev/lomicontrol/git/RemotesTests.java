package dev.lomicontrol.git;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import java.util.OptionalInt;
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
    void anEndpointNamesTransportHostAndPortOnly() {
        assertThat(Remotes.endpoint("o", false, "https://user:token@Example.com:8443/team/r.git?x=1"))
                .isEqualTo(new GitRemoteEndpoint(
                        "o", false, "https", Optional.of("example.com"), OptionalInt.of(8443), true));
        assertThat(Remotes.endpoint("o", true, "ssh://git@host/r.git"))
                .isEqualTo(new GitRemoteEndpoint("o", true, "ssh", Optional.of("host"), OptionalInt.empty(), true));
        assertThat(Remotes.endpoint("o", false, "git@example.com:team/r.git"))
                .isEqualTo(new GitRemoteEndpoint(
                        "o", false, "ssh", Optional.of("example.com"), OptionalInt.empty(), true));
        assertThat(Remotes.endpoint("o", false, "/srv/git/r.git"))
                .isEqualTo(new GitRemoteEndpoint("o", false, "file", Optional.empty(), OptionalInt.empty(), true));
        assertThat(Remotes.endpoint("o", false, "file:///srv/git/r.git"))
                .isEqualTo(new GitRemoteEndpoint("o", false, "file", Optional.empty(), OptionalInt.empty(), true));
        assertThat(Remotes.endpoint("o", false, "weird::secret-helper-arg"))
                .isEqualTo(new GitRemoteEndpoint("o", false, "unknown", Optional.empty(), OptionalInt.empty(), true));
        assertThat(Remotes.endpoint("o", false, "https://example.com"))
                .isEqualTo(new GitRemoteEndpoint(
                        "o", false, "https", Optional.of("example.com"), OptionalInt.empty(), false));
    }

    @Test
    void urlsInsideErrorTextAreRedacted() {
        assertThat(Remotes.redactText("https://u:t0k@h/x: not authorized; retry http://k@g/y"))
                .isEqualTo("https://***@h/x: not authorized; retry http://***@g/y");
    }
}
