package dev.lomicontrol.browser;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class OriginsTests {

    /** N6 (security review 2026-12-06): the broker log names refused addresses without their secrets. */
    @Test
    void anAddressForTheLogKeepsItsPathButNotItsUserInfoQueryOrFragment() {
        assertThat(Origins.forLog("http://127.0.0.1:1808/callback?code=s3cret&state=x#frag"))
                .isEqualTo("http://127.0.0.1:1808/callback?…");
        assertThat(Origins.forLog("https://user:pa55@example.com/a@b/c#token=s3cret"))
                .isEqualTo("https://…@example.com/a@b/c#…");
        assertThat(Origins.forLog("https://example.com/path")).isEqualTo("https://example.com/path");
        assertThat(Origins.forLog("data:text/html,hello")).isEqualTo("data:text/html,hello");
    }
}
