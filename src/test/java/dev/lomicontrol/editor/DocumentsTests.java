package dev.lomicontrol.editor;

import static java.nio.charset.StandardCharsets.UTF_16LE;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.files.LineEndings;
import dev.lomicontrol.files.ProjectFiles;
import dev.lomicontrol.files.RelativePath;
import dev.lomicontrol.files.TextEncoding;
import dev.lomicontrol.files.TextPage;
import dev.lomicontrol.settings.EditorSettings;
import dev.lomicontrol.testing.Files2;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Shared buffers over a real project folder: open, page, edit, save byte-exact, and refuse stale or bad requests. */
class DocumentsTests {

    static final byte[] UTF8_BOM = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};
    static final byte[] UTF16LE_BOM = {(byte) 0xFF, (byte) 0xFE};

    @TempDir
    Path temp;

    Path project;
    ProjectFiles files;
    Documents documents;

    @BeforeEach
    void setUp() throws IOException {
        project = Files.createDirectory(temp.toRealPath().resolve("project"));
        files = new ProjectFiles(project);
        documents = new Documents(new Random(11), 64);
    }

    Document open(String name, byte[] bytes) throws IOException {
        Files.write(project.resolve(name), bytes);
        return documents.open("prj-1", files, RelativePath.parse(name));
    }

    static String whole(Document document) {
        return document.read(0, 8192, Optional.of(document.bufferRevision())).text();
    }

    static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }

    static ErrorCode codeOf(ThrowingCallable call) {
        LomiException e = catchThrowableOfType(LomiException.class, call);
        assertThat(e).as("expected a LomiException").isNotNull();
        return e.code();
    }

    @Test
    void aCrlfFileIsEditedAsLfAndSavedWithCrlfByteForByte() throws IOException {
        Document document = open("notes.txt", "first\r\nsecond\r\n".getBytes(UTF_8));
        assertThat(whole(document)).isEqualTo("first\nsecond\n");
        assertThat(document.lineEndings()).isEqualTo(LineEndings.CRLF);
        assertThat(document.encoding()).isEqualTo(TextEncoding.UTF_8);
        assertThat(document.diskRevision()).isEqualTo(Files2.sha256(project.resolve("notes.txt")));
        assertThat(document.bufferRevision()).isEqualTo(document.id() + ":1");
        assertThat(document.id()).matches("doc-[0-9a-f]{16}");

        EditResult edited =
                document.apply(document.id() + ":1", List.of(new Edit(5, 5, "\nmiddle"), new Edit(13, 13, "third\n")));
        assertThat(edited).isEqualTo(new EditResult(document.id() + ":2", 26));
        assertThat(document.dirty()).isTrue();
        SaveResult saved = document.save(files, edited.bufferRevision(), document.diskRevision());

        byte[] expected = "first\r\nmiddle\r\nsecond\r\nthird\r\n".getBytes(UTF_8);
        assertThat(Files.readAllBytes(project.resolve("notes.txt"))).isEqualTo(expected);
        assertThat(saved)
                .isEqualTo(new SaveResult(
                        document.id() + ":2", Files2.sha256(project.resolve("notes.txt")), expected.length));
        assertThat(document.dirty()).isFalse();
        assertThat(document.diskRevision()).isEqualTo(saved.diskRevision());
        assertThat(document.changedOnDisk(files)).isFalse();
    }

    @Test
    void aUtf8BomFileKeepsItsBom() throws IOException {
        Document document = open("bom.txt", concat(UTF8_BOM, "héllo\n".getBytes(UTF_8)));
        assertThat(whole(document)).isEqualTo("héllo\n");
        assertThat(document.encoding()).isEqualTo(TextEncoding.UTF_8_BOM);

        document.apply(document.bufferRevision(), List.of(new Edit(0, 1, "H")));
        document.save(files, document.bufferRevision(), document.diskRevision());

        assertThat(Files.readAllBytes(project.resolve("bom.txt")))
                .isEqualTo(concat(UTF8_BOM, "Héllo\n".getBytes(UTF_8)));
    }

    @Test
    void aUtf16LeCrlfFileKeepsItsBomEncodingAndLineEndings() throws IOException {
        Document document = open("wide.txt", concat(UTF16LE_BOM, "a\r\n\uD83D\uDE00b\r\n".getBytes(UTF_16LE)));
        assertThat(document.encoding()).isEqualTo(TextEncoding.UTF_16LE);
        assertThat(document.lineEndings()).isEqualTo(LineEndings.CRLF);
        assertThat(whole(document)).isEqualTo("a\n\uD83D\uDE00b\n");

        document.apply(document.bufferRevision(), List.of(new Edit(2, 4, "\u00e9"), new Edit(6, 6, "z\n")));
        document.save(files, document.bufferRevision(), document.diskRevision());

        assertThat(Files.readAllBytes(project.resolve("wide.txt")))
                .isEqualTo(concat(UTF16LE_BOM, "a\r\n\u00e9b\r\nz\r\n".getBytes(UTF_16LE)));
    }

    @Test
    void sixtyFourEditsApplyAsOneStep() throws IOException {
        Document document = open("digits.txt", "0123456789".repeat(7).getBytes(UTF_8));
        List<Edit> edits = new ArrayList<>();
        StringBuilder expected = new StringBuilder();
        for (int i = 0; i < 64; i++) {
            edits.add(new Edit(i, i + 1, "<" + i + ">"));
            expected.append('<').append(i).append('>');
        }
        expected.append("0123456789".repeat(7), 64, 70);

        EditResult result = document.apply(document.id() + ":1", edits);

        assertThat(result.bufferRevision()).isEqualTo(document.id() + ":2");
        assertThat(whole(document)).isEqualTo(expected.toString());
        assertThat(result.lengthUtf16()).isEqualTo(expected.length());
    }

    @Test
    void oneBadEditAmongSixtyFourChangesNothing() throws IOException {
        String original = "ab\uD83D\uDE00cd" + "x".repeat(200);
        Document document = open("mixed.txt", original.getBytes(UTF_8));
        String revision = document.bufferRevision();
        List<List<Edit>> badBatches = new ArrayList<>();
        badBatches.add(withBadEdit(new Edit(68, 72, "overlaps the previous edit")));
        badBatches.add(withBadEdit(new Edit(150, 999, "past the end")));
        badBatches.add(withBadEdit(new Edit(150, 150, "carriage\rreturn")));
        badBatches.add(withBadEdit(new Edit(150, 150, "nul\0byte")));
        badBatches.add(withBadEdit(new Edit(150, 150, "lone \uD83D surrogate")));
        badBatches.add(withBadEdit(new Edit(150, 150, "")));
        badBatches.add(withBadEdit(new Edit(150, 151, "x")));
        badBatches.add(withBadEdit(new Edit(160, 150, "reversed")));
        badBatches.add(withBadEdit(new Edit(-1, 0, "negative")));
        badBatches.add(withBadEdit(new Edit(150, 150, null)));
        List<Edit> splitting = new ArrayList<>(withBadEdit(new Edit(150, 150, "y")));
        splitting.set(0, new Edit(3, 3, "splits the pair"));
        badBatches.add(splitting);
        List<Edit> tooMany = new ArrayList<>(withBadEdit(new Edit(199, 199, "y")));
        tooMany.add(new Edit(205, 205, "65th"));
        badBatches.add(tooMany);

        for (List<Edit> batch : badBatches) {
            assertThat(codeOf(() -> document.apply(revision, batch)))
                    .as("batch ending %s", batch.get(batch.size() - 1))
                    .isEqualTo(ErrorCode.INVALID_ARGUMENT);
            assertThat(document.bufferRevision()).isEqualTo(revision);
            assertThat(whole(document)).isEqualTo(original);
            assertThat(document.dirty()).isFalse();
        }
        assertThat(codeOf(() -> document.apply(revision, List.of()))).isEqualTo(ErrorCode.INVALID_ARGUMENT);
        assertThat(codeOf(() -> document.apply(revision, List.of(new Edit(0, 0, "y".repeat(64 * 1024 + 1))))))
                .isEqualTo(ErrorCode.PAYLOAD_TOO_LARGE);
        assertThat(document.bufferRevision()).isEqualTo(revision);
        assertThat(document.apply(revision, withBadEdit(new Edit(150, 150, "fine")))
                        .bufferRevision())
                .as("the same batch with a good last edit")
                .isEqualTo(document.id() + ":2");
    }

    /** 63 good single-character replacements at 6, 7, ... 68 (after the surrogate pair), then {@code last}. */
    static List<Edit> withBadEdit(Edit last) {
        List<Edit> edits = new ArrayList<>();
        for (int i = 0; i < 63; i++) {
            edits.add(new Edit(6 + i, 7 + i, "Y"));
        }
        edits.add(last);
        return edits;
    }

    @Test
    void aStaleOrForeignBufferRevisionIsRefused() throws IOException {
        Document document = open("a.txt", "alpha\n".getBytes(UTF_8));
        Document other = open("b.txt", "beta\n".getBytes(UTF_8));
        String first = document.bufferRevision();
        document.apply(first, List.of(new Edit(0, 0, ">")));

        assertThat(codeOf(() -> document.apply(first, List.of(new Edit(0, 0, "!")))))
                .isEqualTo(ErrorCode.REVISION_CONFLICT);
        assertThat(codeOf(() -> document.save(files, first, document.diskRevision())))
                .isEqualTo(ErrorCode.REVISION_CONFLICT);
        assertThat(codeOf(() -> document.read(0, 100, Optional.of(first)))).isEqualTo(ErrorCode.REVISION_CONFLICT);
        assertThat(codeOf(() -> document.apply(other.bufferRevision(), List.of(new Edit(0, 0, "!")))))
                .isEqualTo(ErrorCode.INVALID_ARGUMENT);
        assertThat(whole(document)).isEqualTo(">alpha\n");
        assertThat(Files.readString(project.resolve("a.txt"))).isEqualTo("alpha\n");
    }

    @Test
    void anExternalChangeBeforeSaveIsAConflictAndTheFileIsLeftAlone() throws IOException {
        Document document = open("a.txt", "alpha\n".getBytes(UTF_8));
        String loadedFrom = document.diskRevision();
        document.apply(document.bufferRevision(), List.of(new Edit(0, 5, "ALPHA")));
        assertThat(document.changedOnDisk(files)).isFalse();

        Files.write(project.resolve("a.txt"), "someone else\n".getBytes(UTF_8));

        assertThat(document.changedOnDisk(files)).isTrue();
        assertThat(codeOf(() -> document.save(files, document.bufferRevision(), loadedFrom)))
                .isEqualTo(ErrorCode.REVISION_CONFLICT);
        assertThat(Files.readString(project.resolve("a.txt"))).isEqualTo("someone else\n");
        assertThat(document.dirty()).isTrue();
        assertThat(document.diskRevision()).isEqualTo(loadedFrom);
        assertThat(project.toFile().list()).containsExactly("a.txt");

        String seen = Files2.sha256(project.resolve("a.txt"));
        SaveResult overwritten = document.save(files, document.bufferRevision(), seen);
        assertThat(Files.readString(project.resolve("a.txt")))
                .as("naming the revision now on disk overwrites it deliberately")
                .isEqualTo("ALPHA\n");
        assertThat(overwritten.diskRevision()).isEqualTo(document.diskRevision());

        Files.delete(project.resolve("a.txt"));
        assertThat(document.changedOnDisk(files)).isTrue();
    }

    @Test
    void aSaveAddsTheFinalNewlineOnlyWhenTheSettingAsksForIt() throws IOException {
        Document document = open("plain.txt", "no newline".getBytes(UTF_8));
        assertThat(document.settings()).isEqualTo(EditorSettings.DEFAULTS);

        SaveResult added = document.save(files, document.id() + ":1", document.diskRevision());
        assertThat(Files.readString(project.resolve("plain.txt"))).isEqualTo("no newline\n");
        assertThat(added.bufferRevision()).as("the newline is a buffer step").isEqualTo(document.id() + ":2");
        assertThat(whole(document)).isEqualTo("no newline\n");
        assertThat(document.dirty()).isFalse();

        documents.applySettings(new EditorSettings(2, false, false));
        assertThat(document.settings()).isEqualTo(new EditorSettings(2, false, false));
        document.apply(added.bufferRevision(), List.of(new Edit(10, 11, "")));
        SaveResult kept = document.save(files, document.bufferRevision(), document.diskRevision());
        assertThat(Files.readString(project.resolve("plain.txt"))).isEqualTo("no newline");
        assertThat(kept.bufferRevision()).isEqualTo(document.id() + ":3");

        documents.applySettings(EditorSettings.DEFAULTS);
        Document empty = open("empty.txt", new byte[0]);
        assertThat(empty.settings()).isEqualTo(EditorSettings.DEFAULTS);
        empty.save(files, empty.bufferRevision(), empty.diskRevision());
        assertThat(Files.readAllBytes(project.resolve("empty.txt")))
                .as("an empty text gets no newline")
                .isEmpty();
    }

    @Test
    void laterPagesNeedTheBufferRevisionAndStitchTogether() throws IOException {
        String text = "\uD83D\uDE00abc".repeat(100);
        Document document = open("pages.txt", text.getBytes(UTF_8));

        TextPage first = document.read(0, 7, Optional.empty());
        assertThat(first.text()).isEqualTo("\uD83D\uDE00abc\uD83D\uDE00");
        assertThat(first.truncated()).isTrue();
        assertThat(codeOf(() -> document.read(first.nextUtf16(), 7, Optional.empty())))
                .isEqualTo(ErrorCode.INVALID_ARGUMENT);
        assertThat(codeOf(() -> document.read(0, 1, Optional.empty()))).isEqualTo(ErrorCode.INVALID_ARGUMENT);
        assertThat(codeOf(() -> document.read(0, 8193, Optional.empty()))).isEqualTo(ErrorCode.INVALID_ARGUMENT);

        StringBuilder all = new StringBuilder();
        TextPage page = first;
        all.append(page.text());
        while (page.truncated()) {
            page = document.read(page.nextUtf16(), 7, Optional.of(document.bufferRevision()));
            all.append(page.text());
        }
        assertThat(all.toString()).isEqualTo(text);
        assertThat(page.totalUtf16()).isEqualTo(text.length());
    }

    @Test
    void oneBufferPerFileUpToTheLimitAndClosedDocumentsAreGone() throws IOException {
        documents = new Documents(new Random(3), 2);
        Document a = open("a.txt", "a".getBytes(UTF_8));
        assertThat(documents.open("prj-1", files, RelativePath.parse("a.txt"))).isSameAs(a);
        Document b = open("b.txt", "b".getBytes(UTF_8));
        assertThat(codeOf(() -> open("c.txt", "c".getBytes(UTF_8)))).isEqualTo(ErrorCode.RESOURCE_EXHAUSTED);
        assertThat(documents.all()).containsExactly(a, b);
        assertThat(documents.find(b.id())).contains(b);

        documents.close(a.id());

        assertThat(documents.find(a.id())).isEmpty();
        assertThat(codeOf(() -> a.apply(a.bufferRevision(), List.of(new Edit(0, 0, "x")))))
                .isEqualTo(ErrorCode.TARGET_NOT_FOUND);
        assertThat(codeOf(() -> documents.close(a.id()))).isEqualTo(ErrorCode.TARGET_NOT_FOUND);
        Document reopened = documents.open("prj-1", files, RelativePath.parse("a.txt"));
        assertThat(reopened.id()).isNotEqualTo(a.id());
    }

    @Test
    void binaryFilesAndAnotherProjectsFolderAreRefused() throws IOException {
        Files.write(project.resolve("image.bin"), new byte[] {1, 0, 2});
        assertThat(codeOf(() -> documents.open("prj-1", files, RelativePath.parse("image.bin"))))
                .isEqualTo(ErrorCode.UNSUPPORTED_CAPABILITY);

        Document document = open("a.txt", "a\n".getBytes(UTF_8));
        Path elsewhere = Files.createDirectory(temp.toRealPath().resolve("elsewhere"));
        Files.write(elsewhere.resolve("a.txt"), "a\n".getBytes(UTF_8));
        ProjectFiles otherFiles = new ProjectFiles(elsewhere);
        document.apply(document.bufferRevision(), List.of(new Edit(0, 1, "b")));

        assertThat(codeOf(() -> document.save(otherFiles, document.bufferRevision(), document.diskRevision())))
                .isEqualTo(ErrorCode.INVALID_ARGUMENT);
        assertThat(Files.readString(elsewhere.resolve("a.txt"))).isEqualTo("a\n");
    }

    @Test
    void concurrentEditsAgainstOneRevisionLetExactlyOneWin() throws Exception {
        Document document = open("race.txt", "race\n".getBytes(UTF_8));
        String revision = document.bufferRevision();
        int racers = 8;
        CountDownLatch start = new CountDownLatch(1);
        List<String> outcomes = Collections.synchronizedList(new ArrayList<>());
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < racers; i++) {
            String mark = Integer.toString(i);
            Thread thread = new Thread(() -> {
                try {
                    start.await();
                    document.apply(revision, List.of(new Edit(0, 0, mark)));
                    outcomes.add("won " + mark);
                } catch (LomiException e) {
                    outcomes.add(e.code().name());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            thread.start();
            threads.add(thread);
        }
        start.countDown();
        for (Thread thread : threads) {
            thread.join(30_000);
        }

        assertThat(outcomes).hasSize(racers);
        assertThat(outcomes.stream().filter(o -> o.startsWith("won"))).hasSize(1);
        assertThat(outcomes.stream().filter(o -> o.equals("REVISION_CONFLICT"))).hasSize(racers - 1);
        assertThat(document.bufferRevision()).isEqualTo(document.id() + ":2");
        assertThat(whole(document)).hasSize(6).endsWith("race\n");
    }
}
