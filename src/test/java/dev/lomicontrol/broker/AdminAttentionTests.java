package dev.lomicontrol.broker;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Security finding N2, the desktop half: agent text in a notification body is shown, never rendered. */
class AdminAttentionTests {

    @Test
    void aNotificationBodyShowsMarkupAndControlCharactersAsText() {
        String body = AdminAttention.notificationBody(
                "lomi_git_mutate: git stage <b>ok</b> <a href=\"https://evil\">docs</a> & more\u001b[2K\u202e");

        assertThat(body)
                .isEqualTo(
                        "lomi_git_mutate: git stage &lt;b&gt;ok&lt;/b&gt; &lt;a href=\"https://evil\"&gt;docs&lt;/a&gt;"
                                + " &amp; more\\u001b[2K\\u202e");
    }
}
