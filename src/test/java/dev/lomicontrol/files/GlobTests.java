package dev.lomicontrol.files;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class GlobTests {

    @org.junit.jupiter.api.Test
    void matchingTakesLinearTimeEvenForGlobsThatMakeABacktrackingMatcherExplode() {
        Glob evil = Glob.compile("**a".repeat(100) + "**b");
        RelativePath subject = RelativePath.parse("d/" + "a".repeat(250));
        long started = System.nanoTime();
        for (int i = 0; i < 10; i++) {
            assertThat(evil.matches(subject)).isFalse();
        }
        // a generous bound: a backtracking matcher takes minutes here, the linear one milliseconds, so a loaded machine
        // cannot blur the two
        assertThat(System.nanoTime() - started)
                .as("ten matches of a 301-character glob against 252 characters")
                .isLessThan(10_000_000_000L);
    }

    @ParameterizedTest
    @CsvSource({
        "*.java, src/A.java, true",
        "*.java, A.java, true",
        "*.java, src/A.javax, false",
        "src/*.java, src/A.java, true",
        "src/*.java, src/x/A.java, false",
        "src/**/*.java, src/A.java, true",
        "src/**/*.java, src/x/y/A.java, true",
        "src/**, src/x/y/A.java, true",
        "**/test/**, a/test/b.txt, true",
        "?.txt, a.txt, true",
        "?.txt, ab.txt, false",
        "[ab].txt, b.txt, true",
        "[!ab].txt, b.txt, false",
        "[a-c].txt, c.txt, true",
        "'*.{js,ts}', x/y.ts, true",
        "'*.{js,ts}', x/y.tsx, false",
        "a+b(1).txt, a+b(1).txt, true",
        "\\*.txt, *.txt, true",
        "\\*.txt, a.txt, false",
        "build/*, build/x/y, false",
        "[]a].txt, ].txt, true",
        "[a-].txt, -.txt, true",
        "[!a-c]?.md, dx.md, true",
        "'{src,test}/**/*.{java,kt}', test/a/B.kt, true",
        "'{src,test}/**/*.{java,kt}', main/a/B.kt, false",
        "**/*.txt, a.txt, true",
        "a/**/b, a/b, true",
        "a/**/b, a/x/y/b, true",
        "a/**/b, a/xb, false"
    })
    void globsMatchProjectRelativePaths(String glob, String path, boolean expected) {
        assertThat(Glob.compile(glob).matches(RelativePath.parse(path))).isEqualTo(expected);
    }
}
