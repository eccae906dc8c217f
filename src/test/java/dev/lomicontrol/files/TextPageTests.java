package dev.lomicontrol.files;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import org.junit.jupiter.api.Test;

class TextPageTests {

    private static final String TEXT = "ab😀cd"; // a b \uD83D \uDE00 c d

    @Test
    void aStartInsideASurrogatePairIsInvalid() {
        assertThatThrownBy(() -> TextPage.of(TEXT, 3, 10))
                .isInstanceOf(LomiException.class)
                .extracting(e -> ((LomiException) e).code())
                .isEqualTo(ErrorCode.INVALID_ARGUMENT);
    }

    @Test
    void anEndThatWouldSplitAPairStopsBeforeIt() {
        TextPage page = TextPage.of(TEXT, 0, 3);
        assertThat(page.text()).isEqualTo("ab");
        assertThat(page.nextUtf16()).isEqualTo(2);
        assertThat(page.truncated()).isTrue();
        TextPage next = TextPage.of(TEXT, page.nextUtf16(), 3);
        assertThat(next.text()).isEqualTo("😀c");
        assertThat(next.nextUtf16()).isEqualTo(5);
    }

    @Test
    void pagingCoversTheWholeTextExactlyOnce() {
        String text = "😀".repeat(5) + "x" + "😀".repeat(3);
        StringBuilder joined = new StringBuilder();
        int start = 0;
        TextPage page;
        do {
            page = TextPage.of(text, start, 3);
            assertThat(page.totalUtf16()).isEqualTo(text.length());
            joined.append(page.text());
            start = page.nextUtf16();
        } while (page.truncated());
        assertThat(joined.toString()).isEqualTo(text);
        assertThat(start).isEqualTo(text.length());
    }

    @Test
    void boundsAreChecked() {
        assertThat(TextPage.of(TEXT, TEXT.length(), 10).text()).isEmpty();
        assertThat(TextPage.of(TEXT, TEXT.length(), 10).truncated()).isFalse();
        assertThatThrownBy(() -> TextPage.of(TEXT, -1, 10)).isInstanceOf(LomiException.class);
        assertThatThrownBy(() -> TextPage.of(TEXT, 7, 10)).isInstanceOf(LomiException.class);
        assertThatThrownBy(() -> TextPage.of(TEXT, 0, 1)).isInstanceOf(LomiException.class);
    }
}
