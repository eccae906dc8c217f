package dev.lomicontrol.mcp;

import static dev.lomicontrol.mcp.FileTools.maxChars;
import static dev.lomicontrol.mcp.FileTools.relativePath;
import static dev.lomicontrol.mcp.FileTools.utf16;
import static dev.lomicontrol.mcp.Schemas.arrayOf;
import static dev.lomicontrol.mcp.Schemas.bool;
import static dev.lomicontrol.mcp.Schemas.constant;
import static dev.lomicontrol.mcp.Schemas.hex64;
import static dev.lomicontrol.mcp.Schemas.integer;
import static dev.lomicontrol.mcp.Schemas.object;
import static dev.lomicontrol.mcp.Schemas.oneOfStrings;
import static dev.lomicontrol.mcp.Schemas.requiredAfterFirstPage;
import static dev.lomicontrol.mcp.Schemas.string;
import static dev.lomicontrol.mcp.Schemas.token;
import static dev.lomicontrol.mcp.Schemas.withDefault;

import java.util.List;
import tools.jackson.databind.node.ObjectNode;

/**
 * Shared editor tools (SPEC §9, §10 Editor; reference fields of research/lomi.md §1g, §6): open a
 * file in an editor panel, read its buffer, edit it, save it. The buffer, not the disk, is the
 * text: it is addressed by {@code documentId} and versioned by {@code bufferRevision}; a save
 * writes one exact buffer revision over one exact disk revision.
 */
final class EditorTools {

    static final String OPEN = "lomi_editor_open";
    static final String READ = "lomi_editor_read";
    static final String APPLY_EDITS = "lomi_editor_apply_edits";
    static final String SAVE = "lomi_editor_save";

    /** {@code doc-} and 16 lower hex: one loaded document; a reload after close gets a new one. */
    static final String DOCUMENT_ID_PATTERN = "^doc-[0-9a-f]{16}$";
    /** {@code <documentId>:<n>}, n a decimal below 2^53 that grows by one with every edit transaction. */
    static final String BUFFER_REVISION_PATTERN = "^doc-[0-9a-f]{16}:(0|[1-9][0-9]{0,15})$";
    /** Inserted text: the buffer is LF-normalized, so no CR; no NUL. */
    static final String INSERT_PATTERN = "^[^\\r\\u0000]*$";

    private EditorTools() {}

    static List<ToolDefinition> all() {
        return List.of(open(), read(), applyEdits(), save());
    }

    static ObjectNode documentId(String description) {
        return string(20, 20, DOCUMENT_ID_PATTERN, description);
    }

    static ObjectNode bufferRevision(String description) {
        return string(22, 37, BUFFER_REVISION_PATTERN, description);
    }

    private static ToolDefinition open() {
        ObjectNode input = object().property("workspaceId", token("the workspace that shows the editor"))
                .property("relativePath", relativePath("the file, relative to the project root"))
                .property("presentation", withDefault(oneOfStrings("editor (default), preview or split (editor and preview side by side)",
                        "editor", "preview", "split"), "editor"))
                .require("workspaceId", "relativePath").expectedRevision().durable().closed().build();
        return ToolDefinition.broker(OPEN, "Open a file in the editor",
                "Opens a file in a shared editor panel, or reveals the panel that already shows it. Never returns the content: read it with "
                        + "lomi_editor_read. Returns an operation; its result is {kind:\"editor_opened\", workspaceId, panelId, documentId, "
                        + "bufferRevision, diskRevision, dirty, encoding, lineEndings, lengthUtf16, domainRevision}.",
                Effect.OP, "editor.read", input, OperationTools.operation());
    }

    private static ToolDefinition read() {
        ObjectNode input = target()
                .property("documentId", documentId("optional: the document you expect the panel to hold (from lomi_editor_open)"))
                .property("expectedBufferRevision", bufferRevision("the bufferRevision of the first page; required when startUtf16 > 0, so "
                        + "that pages of a buffer that changed in between are refused (REVISION_CONFLICT)"))
                .property("startUtf16", withDefault(utf16("where the page starts, in UTF-16 code units of the LF-normalized buffer "
                        + "(default 0)"), 0))
                .property("maxChars", maxChars()).closed().build();
        ObjectNode data = object().property("kind", constant("editor_text")).property("workspaceId", token("the workspace"))
                .property("panelId", token("the editor panel")).property("documentId", documentId("the document"))
                .property("bufferRevision", bufferRevision("the buffer's revision; send it as expectedBufferRevision"))
                .property("diskRevision", hex64("the revision of the file the buffer was last loaded from or saved to"))
                .property("dirty", bool("whether the buffer has unsaved edits"))
                .property("changedOnDisk", bool("whether the file on disk no longer has diskRevision"))
                .property("text", string("the page of the buffer, LF line endings"))
                .property("startUtf16", integer("where this page starts")).property("nextUtf16", integer("where the next page starts"))
                .property("totalUtf16", integer("the buffer's length in UTF-16 code units"))
                .property("truncated", bool("whether text follows this page"))
                .require("kind", "workspaceId", "panelId", "documentId", "bufferRevision", "diskRevision", "dirty", "changedOnDisk", "text",
                        "startUtf16", "nextUtf16", "totalUtf16", "truncated")
                .build();
        return ToolDefinition.broker(READ, "Read an editor buffer",
                "Reads a page of the loaded buffer (with any unsaved edits; LF line endings; UTF-16 offsets), its bufferRevision and "
                        + "diskRevision, dirty and changedOnDisk. Later pages need expectedBufferRevision.",
                Effect.RO, "editor.read", input, data).withConstraint(requiredAfterFirstPage("startUtf16", "expectedBufferRevision"));
    }

    private static ToolDefinition applyEdits() {
        ObjectNode edit = object().property("fromUtf16", utf16("where the replaced range starts"))
                .property("toUtf16", utf16("where it ends (exclusive); equal to fromUtf16 to insert"))
                .property("insert", string(0, 65536, INSERT_PATTERN, "the replacement text, LF line endings, no CR or NUL; \"\" deletes"))
                .require("fromUtf16", "toUtf16", "insert").closed().build();
        ObjectNode input = document()
                .property("edits", arrayOf(edit, 1, 64, "1-64 edits in ascending order, not overlapping, all against "
                        + "expectedBufferRevision"))
                .require("edits").expectedRevision().durable().closed().build();
        return ToolDefinition.broker(APPLY_EDITS, "Edit an editor buffer",
                "Applies 1-64 ordered, non-overlapping UTF-16 edits to the buffer as one undo step; all or nothing. Does not save. A stale "
                        + "buffer or disk revision fails with REVISION_CONFLICT. Returns an operation; its result is "
                        + "{kind:\"editor_edited\", documentId, bufferRevision, lengthUtf16, dirty}.",
                Effect.OP, "editor.write", input, OperationTools.operation());
    }

    private static ToolDefinition save() {
        ObjectNode input = document().expectedRevision().durable().closed().build();
        return ToolDefinition.broker(SAVE, "Save an editor buffer",
                "Writes exactly the buffer revision expectedBufferRevision over the file whose bytes have expectedDiskRevision, atomically, "
                        + "keeping its encoding, line endings and mode; you send no content. Returns an operation; its result is "
                        + "{kind:\"editor_saved\", documentId, bufferRevision, diskRevision, byteLength}.",
                Effect.OP, "editor.write", input, OperationTools.operation());
    }

    /** The fields that name an editor panel and the file it shows. */
    private static Schemas.ObjectSchema target() {
        return object().property("workspaceId", token("its workspace")).property("panelId", token("the editor panel"))
                .property("relativePath", relativePath("the file the panel shows")).require("workspaceId", "panelId", "relativePath");
    }

    /** A target plus the exact document, buffer revision and disk revision a change is based on. */
    private static Schemas.ObjectSchema document() {
        return target().property("documentId", documentId("the document (from lomi_editor_open or lomi_editor_read)"))
                .property("expectedBufferRevision", bufferRevision("the buffer revision this change is based on"))
                .property("expectedDiskRevision", hex64("the diskRevision the buffer is based on"))
                .require("documentId", "expectedBufferRevision", "expectedDiskRevision");
    }
}
