package dev.lomicontrol.editor.api;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.core.RequestKey;
import dev.lomicontrol.core.RetryEpochId;
import dev.lomicontrol.core.WorkspaceId;
import dev.lomicontrol.files.api.FileSpecs;
import dev.lomicontrol.tools.Decimal;
import dev.lomicontrol.tools.Default;
import dev.lomicontrol.tools.Doc;
import dev.lomicontrol.tools.Durable;
import dev.lomicontrol.tools.Hex64;
import dev.lomicontrol.tools.Items;
import dev.lomicontrol.tools.LayoutBased;
import dev.lomicontrol.tools.Len;
import dev.lomicontrol.tools.Matches;
import dev.lomicontrol.tools.Range;
import dev.lomicontrol.tools.Tag;
import dev.lomicontrol.tools.Token;
import dev.lomicontrol.tools.ToolSpec;
import java.util.List;
import java.util.Optional;

/**
 * The editor tools (SPEC §10 Editor; the reference's {@code editor.rs}): shared buffers that open
 * without returning content, page the LF-normalized buffer, apply 1-64 edits as one undo step against
 * one {@code expectedBufferRevision}, and save that exact buffer revision over the exact disk revision.
 */
public final class EditorSpecs {

    private EditorSpecs() {}

    /** A document id: {@code doc-} and 16 hex digits. */
    public static final String DOCUMENT = "doc-[0-9a-f]{16}";
    /** A buffer revision: {@code <documentId>:<n>}. */
    public static final String BUFFER = DOCUMENT + ":(0|[1-9][0-9]{0,15})";

    /** How to show the file: only {@code editor} (text) on this host. */
    public enum Presentation {
        EDITOR,
        PREVIEW,
        SPLIT
    }

    public record OpenInput(
            WorkspaceId workspaceId,

            @Len(min = 1, max = FileSpecs.MAX_PATH) @Matches(FileSpecs.PATH)
            String relativePath,

            @Doc("only editor on this host") @Default("\"editor\"")
            Presentation presentation,

            @Doc("the domainRevision") Decimal expectedRevision,

            RetryEpochId retryEpoch,

            RequestKey requestKey)
            implements Durable, LayoutBased {}

    @Tag("editor_opened")
    public record Opened(
            @Doc("the layout revision after the change") Decimal domainRevision,
            WorkspaceId workspaceId,
            @Doc("the editor panel showing the document") String panelId,
            @Doc("the file") String relativePath,
            @Doc("always editor here") Presentation presentation,

            @Doc("the shared buffer's id") @Matches(DOCUMENT)
            String documentId,

            @Doc("send it as expectedBufferRevision") @Matches(BUFFER)
            String bufferRevision,

            Hex64 diskRevision,

            @Doc("whether the buffer has unsaved edits") boolean dirty,
            @Doc("the file's encoding, kept on save") FileSpecs.Encoding encoding,

            @Doc("the file's line endings, restored on save")
            FileSpecs.LineEndings lineEndings,

            @Doc("the buffer's length in UTF-16 code units") int lengthUtf16) {}

    public record ReadInput(
            WorkspaceId workspaceId,
            Token panelId,

            @Len(min = 1, max = FileSpecs.MAX_PATH) @Matches(FileSpecs.PATH)
            String relativePath,

            @Doc("null = any") @Matches(DOCUMENT) Optional<String> documentId,

            @Doc("from page one") @Matches(BUFFER) Optional<String> expectedBufferRevision,

            @Range(min = 0, max = FileSpecs.MAX_UTF16) @Default("0")
            int startUtf16,

            @Range(min = 2, max = 8192) @Default("4096") int maxChars) {

        public ReadInput {
            if (startUtf16 > 0 && expectedBufferRevision.isEmpty()) {
                throw new LomiException(
                        ErrorCode.INVALID_ARGUMENT,
                        "expectedBufferRevision: is required when startUtf16 > 0 (the bufferRevision of the first page)");
            }
        }
    }

    @Tag("editor_text")
    public record Text(
            WorkspaceId workspaceId,
            String panelId,
            @Doc("the file") String relativePath,
            @Matches(DOCUMENT) String documentId,
            @Matches(BUFFER) String bufferRevision,

            @Doc("the disk revision the buffer was loaded from or last saved as")
            Hex64 diskRevision,

            @Doc("whether the buffer has unsaved edits") boolean dirty,

            @Doc("whether the file on disk no longer matches diskRevision (the reference's conflict)")
            boolean changedOnDisk,

            @Doc("the file's encoding") FileSpecs.Encoding encoding,

            @Doc("the file's line endings (the buffer itself is LF)")
            FileSpecs.LineEndings lineEndings,

            @Doc("the page of the LF-normalized buffer (the reference's content)")
            String text,

            int startUtf16,
            int nextUtf16,
            int totalUtf16,
            boolean truncated) {}

    public record Edit(
            @Range(min = 0, max = FileSpecs.MAX_UTF16) int fromUtf16,

            @Doc("exclusive") @Range(min = 0, max = FileSpecs.MAX_UTF16)
            int toUtf16,

            @Default("\"\"") @Len(max = 65536) @Matches("[^\\r\\u0000]*")
            String insert) {}

    public record EditsInput(
            WorkspaceId workspaceId,
            Token panelId,

            @Len(min = 1, max = FileSpecs.MAX_PATH) @Matches(FileSpecs.PATH)
            String relativePath,

            @Matches(DOCUMENT) String documentId,

            @Matches(BUFFER) String expectedBufferRevision,

            Hex64 expectedDiskRevision,

            @Doc("ordered, non-overlapping; one undo step") @Items(min = 1, max = 64)
            List<Edit> edits,

            @Doc("the domainRevision") Decimal expectedRevision,

            RetryEpochId retryEpoch,

            RequestKey requestKey)
            implements Durable, LayoutBased {}

    @Tag("editor_edited")
    public record Edited(
            @Matches(DOCUMENT) String documentId,

            @Doc("the buffer revision the edits were based on") @Matches(BUFFER)
            String previousBufferRevision,

            @Doc("the buffer revision afterwards") @Matches(BUFFER)
            String bufferRevision,

            Hex64 diskRevision,

            @Doc("the buffer's length afterwards") int lengthUtf16,
            boolean dirty,
            @Doc("how many edits were applied") int editCount) {}

    public record SaveInput(
            WorkspaceId workspaceId,
            Token panelId,

            @Len(min = 1, max = FileSpecs.MAX_PATH) @Matches(FileSpecs.PATH)
            String relativePath,

            @Matches(DOCUMENT) String documentId,

            @Matches(BUFFER) String expectedBufferRevision,

            Hex64 expectedDiskRevision,

            @Doc("the domainRevision") Decimal expectedRevision,

            RetryEpochId retryEpoch,

            RequestKey requestKey)
            implements Durable, LayoutBased {}

    @Tag("editor_saved")
    public record Saved(
            @Matches(DOCUMENT) String documentId,

            @Doc("the buffer revision saved (the reference's savedBufferRevision)") @Matches(BUFFER)
            String bufferRevision,

            @Doc("the disk revision the save replaced") Hex64 previousDiskRevision,
            @Doc("the file's disk revision afterwards") Hex64 diskRevision,
            @Doc("bytes written (a decimal string)") Decimal byteLength) {}

    public static final ToolSpec<OpenInput> OPEN = ToolSpec.operation(
            "lomi_editor_open",
            "Open a file in the editor",
            "editor.read",
            "--I-",
            OpenInput.class,
            Opened.class,
            "Opens (or reveals) a project file in the shared editor; returns the panel, documentId and revisions, not the text.");

    public static final ToolSpec<ReadInput> READ = ToolSpec.read(
            "lomi_editor_read",
            "Read an editor buffer",
            "editor.read",
            "R-I-",
            ReadInput.class,
            Text.class,
            "Reads a page of an open editor buffer with its bufferRevision.");

    public static final ToolSpec<EditsInput> APPLY_EDITS = ToolSpec.operation(
            "lomi_editor_apply_edits",
            "Edit a buffer",
            "editor.write",
            "-DIO",
            EditsInput.class,
            Edited.class,
            "Applies edits to an editor buffer as one undo step; all or nothing. Does not save.");

    public static final ToolSpec<SaveInput> SAVE = ToolSpec.operation(
            "lomi_editor_save",
            "Save a buffer",
            "editor.write",
            "-DIO",
            SaveInput.class,
            Saved.class,
            "Saves an editor buffer over the file, atomically, keeping its encoding and line endings.");

    public static final List<ToolSpec<?>> ALL = List.of(OPEN, READ, APPLY_EDITS, SAVE);
}
