package dev.lomicontrol.files;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class GlobTests {

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
        "build/*, build/x/y, false"
    })
    void globsMatchProjectRelativePaths(String glob, String path, boolean expected) {
        assertThat(Glob.compile(glob).matches(RelativePath.parse(path))).isEqualTo(expected);
    }
}
