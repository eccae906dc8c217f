package dev.lomicontrol.files;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class RelativePathTests {

    @ParameterizedTest
    @ValueSource(
            strings = {
                "..", "a/..", "../a", "a/../b", ".", "./a", "a/.", "a//b", "a/", "/a", "/", "a\\b", "\\", "a\0b", "\0"
            })
    void unsafePathsAreInvalidArguments(String text) {
        assertThatThrownBy(() -> RelativePath.parse(text))
                .isInstanceOf(LomiException.class)
                .extracting(e -> ((LomiException) e).code())
                .isEqualTo(ErrorCode.INVALID_ARGUMENT);
    }

    @Test
    void tooLongOrTooDeepPathsAreInvalidArguments() {
        String deep = String.join("/", java.util.Collections.nCopies(129, "a"));
        String longPath = String.join("/", java.util.Collections.nCopies(20, "x".repeat(250)));
        assertThat(RelativePath.parse(String.join("/", java.util.Collections.nCopies(128, "a")))
                        .components())
                .hasSize(128);
        assertThatThrownBy(() -> RelativePath.parse(deep)).hasMessageContaining("components");
        assertThatThrownBy(() -> RelativePath.parse(longPath)).hasMessageContaining("4096");
        assertThatThrownBy(() -> RelativePath.parse(null)).isInstanceOf(LomiException.class);
    }

    @Test
    void emptyTextIsTheRootAndComponentsRoundTrip() {
        assertThat(RelativePath.parse("")).isEqualTo(RelativePath.root());
        assertThat(RelativePath.root().isRoot()).isTrue();
        assertThat(RelativePath.root().toString()).isEmpty();
        RelativePath p = RelativePath.parse("src/main/Ä b.java");
        assertThat(p.components()).isEqualTo(List.of("src", "main", "Ä b.java"));
        assertThat(p.name()).isEqualTo("Ä b.java");
        assertThat(p.parent()).isEqualTo(RelativePath.parse("src/main"));
        assertThat(p.parent().parent().parent()).isEqualTo(RelativePath.root());
        assertThat(RelativePath.root().child("src").child("x")).isEqualTo(RelativePath.parse("src/x"));
        assertThat(p.toString()).isEqualTo("src/main/Ä b.java");
        assertThat(p.hashCode())
                .isEqualTo(RelativePath.parse("src/main/Ä b.java").hashCode());
        assertThat(p.startsWith(RelativePath.parse("src"))).isTrue();
        assertThat(RelativePath.parse("srcx").startsWith(RelativePath.parse("src")))
                .isFalse();
    }

    @Test
    void childRejectsTheSameThingsAsParse() {
        for (String bad : List.of("", ".", "..", "a/b", "a\\b", "a\0")) {
            assertThatThrownBy(() -> RelativePath.root().child(bad)).isInstanceOf(LomiException.class);
        }
        assertThatThrownBy(() -> RelativePath.root().parent()).isInstanceOf(LomiException.class);
    }

    @org.junit.jupiter.api.Test
    void anUnpairedSurrogateIsRefusedAsInvalidUnicodeWhileAPairedOneIsAName() {
        for (String bad : java.util.List.of("a\uD83D", "\uDE00b", "dir/x\uD83Dy", "\uDE00\uD83D")) {
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> RelativePath.parse(bad))
                    .isInstanceOf(dev.lomicontrol.core.LomiException.class)
                    .hasMessageContaining("unpaired surrogate");
        }
        org.assertj.core.api.Assertions.assertThat(
                        RelativePath.parse("smile-\uD83D\uDE00.txt").toString())
                .isEqualTo("smile-\uD83D\uDE00.txt");
    }
}
