package dev.lomicontrol.files;

import static dev.lomicontrol.files.Fixture.code;
import static dev.lomicontrol.files.Fixture.p;
import static dev.lomicontrol.files.Fixture.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.testing.Files2;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Search sees what listings show, reports exact positions, and stays within its bounds. */
class ProjectFilesSearchTests extends ProjectFilesTest {

    @BeforeEach
    void setUp() throws IOException {
        write(root, "src/A.java", "class A {}\n  int foo = 1; // Foo\n");
        write(root, "src/notes.txt", "😀 foo\r\nfoobar\n");
        write(root, ".env", "foo=secret");
        write(root, "src/.git/config", "foo");
        write(root, "src/id_rsa", "foo");
        write(root, "node_modules/lib/x.js", "foo");
        write(root, "bin.dat", new byte[] {'f', 'o', 'o', 0, 1, 2});
        Path outside = write(temp.toRealPath(), "outside/leak.txt", "foo outside");
        Files.createSymbolicLink(root.resolve("src/leak.txt"), outside);
        Files.createSymbolicLink(root.resolve("linkdir"), outside.getParent());
        files = new ProjectFiles(root);
    }

    private static SearchQuery query(String text, boolean regex, boolean caseSensitive, boolean wholeWord) {
        return new SearchQuery(text, regex, caseSensitive, wholeWord, List.of(), List.of());
    }

    @Test
    void literalSearchReportsOneBasedLinesAndUtf16ColumnsAndSkipsWhatIsHidden() {
        SearchResult result = files.search(RelativePath.root(), query("foo", false, true, false), 100);
        assertThat(result.matches())
                .extracting(
                        SearchMatch::relativePath,
                        SearchMatch::line,
                        SearchMatch::columnUtf16,
                        SearchMatch::lengthUtf16)
                .containsExactly(
                        tuple("node_modules/lib/x.js", 1, 1, 3),
                        tuple("src/A.java", 2, 7, 3),
                        tuple("src/notes.txt", 1, 4, 3), // "😀" is two UTF-16 units, then a space
                        tuple("src/notes.txt", 2, 1, 3));
        assertThat(result.matches().get(2).preview()).isEqualTo("😀 foo");
        assertThat(result.matches().get(1).diskRevision()).isEqualTo(Files2.sha256(root.resolve("src/A.java")));
        assertThat(result.truncated()).isFalse();
        assertThat(result.filesScanned()).isEqualTo(4); // x.js, A.java, notes.txt, bin.dat
        assertThat(result.skipped()).isEqualTo(1); // the binary file
    }

    @Test
    void caseInsensitiveWholeWordAndRegexSearches() {
        assertThat(files.search(p("src"), query("foo", false, false, false), 100)
                        .matches())
                .extracting(SearchMatch::relativePath, SearchMatch::line, SearchMatch::columnUtf16)
                .containsExactly(
                        tuple("src/A.java", 2, 7),
                        tuple("src/A.java", 2, 19),
                        tuple("src/notes.txt", 1, 4),
                        tuple("src/notes.txt", 2, 1));
        assertThat(files.search(p("src"), query("foo", false, true, true), 100).matches())
                .extracting(SearchMatch::relativePath, SearchMatch::line)
                .containsExactly(tuple("src/A.java", 2), tuple("src/notes.txt", 1));
        assertThat(files.search(p("src"), query("fo+ba?r", true, true, false), 100)
                        .matches())
                .extracting(
                        SearchMatch::relativePath,
                        SearchMatch::line,
                        SearchMatch::columnUtf16,
                        SearchMatch::lengthUtf16)
                .containsExactly(tuple("src/notes.txt", 2, 1, 6));
        assertThat(files.search(p("src"), query("int\\s+(\\w+)", true, true, true), 100)
                        .matches())
                .extracting(SearchMatch::columnUtf16, SearchMatch::lengthUtf16)
                .containsExactly(tuple(3, 7));
        assertThat(files.search(p("src"), query("f.o", false, true, false), 100).matches())
                .isEmpty();
    }

    @Test
    void includeAndExcludeGlobsSelectFilesAndPruneDirectories() {
        SearchResult javaOnly = files.search(
                RelativePath.root(), new SearchQuery("foo", false, true, false, List.of("*.java"), List.of()), 100);
        assertThat(javaOnly.matches()).extracting(SearchMatch::relativePath).containsOnly("src/A.java");
        SearchResult noModules = files.search(
                RelativePath.root(),
                new SearchQuery("foo", false, true, false, List.of(), List.of("node_modules", "*.txt")),
                100);
        assertThat(noModules.matches()).extracting(SearchMatch::relativePath).containsOnly("src/A.java");
        SearchResult pathGlob = files.search(
                RelativePath.root(),
                new SearchQuery("foo", false, true, false, List.of("src/**/*.{txt,md}"), List.of()),
                100);
        assertThat(pathGlob.matches()).extracting(SearchMatch::relativePath).containsOnly("src/notes.txt");
        SearchResult deep = files.search(
                RelativePath.root(),
                new SearchQuery("foo", false, true, false, List.of("**/lib/*.js"), List.of()),
                100);
        assertThat(deep.matches()).extracting(SearchMatch::relativePath).containsOnly("node_modules/lib/x.js");
    }

    @Test
    void boundsTruncateTheResult() {
        SearchResult one = files.search(RelativePath.root(), query("foo", false, true, false), 1);
        assertThat(one.matches()).hasSize(1);
        assertThat(one.truncated()).isTrue();
        SearchResult exact = files.search(RelativePath.root(), query("foo", false, true, false), 4);
        assertThat(exact.matches()).hasSize(4);
        assertThat(exact.truncated()).isFalse();

        write(root, "long/line.txt", "x".repeat(Search.MAX_LINE + 1) + "foo\nfoo\n");
        SearchResult longLine = files.search(p("long"), query("foo", false, true, false), 10);
        assertThat(longLine.matches()).extracting(SearchMatch::line).containsExactly(2);
        assertThat(longLine.skipped()).isEqualTo(1);
    }

    @Test
    void aRunawayRegexStopsAtTheDeadline() {
        write(root, "slow/evil.txt", "a".repeat(40) + "!");
        AtomicLong now = new AtomicLong();
        ProjectFiles clocked =
                new ProjectFiles(root, Checkpoints.NONE, new SecureRandom(), () -> now.addAndGet(100_000_000));
        long started = System.nanoTime();
        SearchResult result = clocked.search(p("slow"), query("((a+)+)+b", true, true, false), 10);
        assertThat(result.truncated()).isTrue();
        assertThat(result.matches()).isEmpty();
        assertThat(System.nanoTime() - started).isLessThan(10_000_000_000L);
    }

    @Test
    void aPathologicalGlobAnswersAtOnceWhateverTheNameLength() {
        write(root, "deep/" + "a".repeat(200), "x");
        write(root, "deep/" + "a".repeat(199) + "b", "x");
        String evil = "**a".repeat(40) + "**b";
        long started = System.nanoTime();
        SearchResult result = files.search(
                p("deep"),
                new SearchQuery("x", false, true, false, List.of(evil), List.of("**a**a**a**a**a**a**c")),
                10);
        long took = System.nanoTime() - started;

        assertThat(result.matches())
                .extracting(SearchMatch::relativePath)
                .containsExactly("deep/" + "a".repeat(199) + "b");
        // a generous bound: the old regex took minutes, linear matching takes milliseconds; a loaded machine cannot
        // blur the two
        assertThat(took)
                .as("linear-time glob matching (the old regex took minutes for 4 stars)")
                .isLessThan(20_000_000_000L);
    }

    @Test
    void invalidQueriesAreInvalidArguments() {
        assertThat(code(() -> files.search(RelativePath.root(), query("(", true, true, false), 10)))
                .isEqualTo(ErrorCode.INVALID_ARGUMENT);
        assertThat(code(() -> files.search(RelativePath.root(), query("", false, true, false), 10)))
                .isEqualTo(ErrorCode.INVALID_ARGUMENT);
        assertThat(code(() -> files.search(RelativePath.root(), query("x", false, true, false), 0)))
                .isEqualTo(ErrorCode.INVALID_ARGUMENT);
        assertThat(code(() -> files.search(
                        RelativePath.root(), new SearchQuery("x", false, true, false, List.of("[abc"), List.of()), 10)))
                .isEqualTo(ErrorCode.INVALID_ARGUMENT);
        assertThat(code(() -> files.search(p(".git"), query("x", false, true, false), 10)))
                .isEqualTo(ErrorCode.SCOPE_DENIED);
        assertThat(code(() -> files.search(p("linkdir"), query("x", false, true, false), 10)))
                .isEqualTo(ErrorCode.SCOPE_DENIED);
    }
}
