package dev.lomicontrol.editor;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.Ids;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.files.DecodedText;
import dev.lomicontrol.files.LineEndings;
import dev.lomicontrol.files.Mutation;
import dev.lomicontrol.files.ProjectFiles;
import dev.lomicontrol.files.RelativePath;
import dev.lomicontrol.files.TextCodec;
import dev.lomicontrol.files.TextEncoding;
import dev.lomicontrol.files.TextPage;
import dev.lomicontrol.settings.EditorSettings;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;

/**
 * One shared editor buffer: the LF-normalized text of a project file, the encoding and line endings
 * it is written back with, and the disk revision it was loaded from or last saved as. Every change
 * names the exact {@link #bufferRevision()} it applies to and moves it to {@code n+1}; on any
 * refusal nothing changes. Thread-safe; a closed document refuses everything with TARGET_NOT_FOUND.
 */
public final class Document {

    /** The highest revision counter (2^53 − 1, exact in JSON numbers everywhere). */
    static final long MAX_REVISION = (1L << 53) - 1;

    static final int MIN_PAGE = 2;
    static final int MAX_PAGE = 8192;

    private final String id;
    private final String projectKey;
    private final RelativePath path;
    private final Path root;
    private final TextEncoding encoding;
    private volatile EditorSettings settings;

    // guarded by this
    private String text;
    private long revision = 1;
    private long cleanRevision = 1;
    private String diskRevision;
    private LineEndings lineEndings;
    private boolean closed;

    Document(
            String id,
            String projectKey,
            RelativePath path,
            Path root,
            DecodedText decoded,
            String diskRevision,
            EditorSettings settings) {
        this.id = id;
        this.projectKey = projectKey;
        this.path = path;
        this.root = root;
        this.encoding = decoded.encoding();
        this.lineEndings = decoded.lineEndings();
        this.text = TextCodec.normalizeToLf(decoded.text());
        this.diskRevision = diskRevision;
        this.settings = settings;
    }

    /** The documentId, {@code "doc-"} + 16 hex. */
    public String id() {
        return id;
    }

    public RelativePath path() {
        return path;
    }

    public String projectKey() {
        return projectKey;
    }

    /** {@code "<documentId>:<n>"}; n starts at 1 and grows by one per applied batch. */
    public synchronized String bufferRevision() {
        return id + ":" + revision;
    }

    /** The disk revision the buffer was loaded from or last saved as. */
    public synchronized String diskRevision() {
        return diskRevision;
    }

    /** Whether the buffer has changes not yet saved. */
    public synchronized boolean dirty() {
        return revision != cleanRevision;
    }

    public TextEncoding encoding() {
        return encoding;
    }

    /** The line endings a save writes (a file without line breaks or with mixed ones gets LF once it has lines). */
    public synchronized LineEndings lineEndings() {
        return lineEndings;
    }

    /** The editor settings in force (tab size and insert spaces are reported, never applied to the text). */
    public EditorSettings settings() {
        return settings;
    }

    public synchronized int lengthUtf16() {
        return text.length();
    }

    /**
     * One page of the buffer ({@code maxChars} 2..8192 UTF-16 units, cut on scalar boundaries). A page
     * after the first ({@code startUtf16 > 0}) needs {@code expectedBufferRevision} (INVALID_ARGUMENT
     * without it) so pages of different revisions are never stitched together; a stale one is
     * REVISION_CONFLICT.
     */
    public TextPage read(int startUtf16, int maxChars, Optional<String> expectedBufferRevision) {
        if (maxChars < MIN_PAGE || maxChars > MAX_PAGE) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, "maxChars must be " + MIN_PAGE + ".." + MAX_PAGE);
        }
        if (startUtf16 > 0 && expectedBufferRevision.isEmpty()) {
            throw new LomiException(
                    ErrorCode.INVALID_ARGUMENT, "reading past the first page needs expectedBufferRevision");
        }
        String snapshot;
        synchronized (this) {
            requireOpen();
            expectedBufferRevision.ifPresent(this::requireRevision);
            snapshot = text;
        }
        return TextPage.of(snapshot, startUtf16, maxChars);
    }

    /**
     * Applies 1–64 edits (see {@link Edit}) against {@code expectedBufferRevision} as one step
     * (n → n+1): strictly ascending, non-overlapping, inside the buffer, no CR/NUL or unpaired
     * surrogate in inserts, none that changes nothing, at most 64 KiB of inserts. A stale revision is
     * REVISION_CONFLICT; a bad edit INVALID_ARGUMENT (PAYLOAD_TOO_LARGE for size); either way nothing
     * changes. Does not save.
     */
    public synchronized EditResult apply(String expectedBufferRevision, List<Edit> edits) {
        requireOpen();
        requireRevision(expectedBufferRevision);
        if (revision >= MAX_REVISION) {
            throw new LomiException(
                    ErrorCode.RESOURCE_EXHAUSTED,
                    "the buffer revision counter is exhausted; close and reopen the document");
        }
        text = EditBatch.apply(text, edits);
        revision++;
        return new EditResult(bufferRevision(), text.length());
    }

    /**
     * Writes exactly {@code expectedBufferRevision} to the file atomically (through
     * {@link ProjectFiles#replace}) in the original encoding and line endings, appending a final "\n"
     * first when the settings ask for it and the text is non-empty (that append is itself a revision
     * step). The file must still have {@code expectedDiskRevision} (REVISION_CONFLICT, file untouched,
     * otherwise). Afterwards the buffer is clean at the new disk revision.
     */
    public synchronized SaveResult save(
            ProjectFiles files, String expectedBufferRevision, String expectedDiskRevision) {
        requireOpen();
        requireRevision(expectedBufferRevision);
        requireSameProject(files);
        Ids.requireHex(expectedDiskRevision, 64, "expectedDiskRevision");
        boolean addNewline = settings.insertFinalNewline() && !text.isEmpty() && !text.endsWith("\n");
        String saved = addNewline ? text + "\n" : text;
        byte[] bytes = TextCodec.encode(TextCodec.withLineEndings(saved, lineEndings), encoding);
        Mutation written = files.replace(path, bytes, expectedDiskRevision);
        if (addNewline) {
            text = saved;
            revision++;
        }
        cleanRevision = revision;
        diskRevision = written.diskRevision().orElseGet(() -> sha256(bytes));
        if ((lineEndings == LineEndings.NONE || lineEndings == LineEndings.MIXED) && text.indexOf('\n') >= 0) {
            lineEndings = LineEndings.LF;
        }
        return new SaveResult(bufferRevision(), diskRevision, bytes.length);
    }

    /** Whether the file on disk no longer has {@link #diskRevision()} (changed, removed or no longer readable). */
    public boolean changedOnDisk(ProjectFiles files) {
        synchronized (this) {
            requireOpen();
        }
        requireSameProject(files);
        String current;
        try {
            current = files.read(path).diskRevision();
        } catch (LomiException e) {
            if (e.code() == ErrorCode.STORAGE_UNAVAILABLE) {
                throw e;
            }
            return true;
        }
        return !current.equals(diskRevision());
    }

    /** Puts new editor settings in force for the next save. */
    public void applySettings(EditorSettings settings) {
        this.settings = settings;
    }

    synchronized void close() {
        closed = true;
    }

    private void requireOpen() {
        if (closed) {
            throw new LomiException(ErrorCode.TARGET_NOT_FOUND, "no document " + id);
        }
    }

    /** INVALID_ARGUMENT when {@code expected} is not a revision of this document; REVISION_CONFLICT when it is not the current one. */
    private void requireRevision(String expected) {
        String prefix = id + ":";
        if (expected == null || !expected.startsWith(prefix)) {
            throw new LomiException(
                    ErrorCode.INVALID_ARGUMENT,
                    "expectedBufferRevision must be a revision of " + id + " ('" + prefix + "<n>')");
        }
        if (!expected.equals(bufferRevision())) {
            throw new LomiException(
                    ErrorCode.REVISION_CONFLICT,
                    "the buffer changed: " + expected + " is stale, now " + bufferRevision());
        }
    }

    private void requireSameProject(ProjectFiles files) {
        if (!files.root().equals(root)) {
            throw new LomiException(
                    ErrorCode.INVALID_ARGUMENT, "document " + id + " belongs to another project folder");
        }
    }

    private static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
