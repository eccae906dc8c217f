package dev.lomicontrol.broker;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.editor.Document;
import dev.lomicontrol.editor.Documents;
import dev.lomicontrol.editor.Edit;
import dev.lomicontrol.editor.EditResult;
import dev.lomicontrol.editor.SaveResult;
import dev.lomicontrol.files.RelativePath;
import dev.lomicontrol.files.TextPage;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.projects.Layout;
import dev.lomicontrol.projects.Panel;
import dev.lomicontrol.projects.PanelKind;
import dev.lomicontrol.projects.WorkspaceView;
import dev.lomicontrol.settings.Settings;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Shared editor buffers (SPEC §10 "Editor"): open returns identities and revisions, never content;
 * read pages the LF-normalized buffer; apply_edits changes the buffer as one undo step checked
 * against one {@code expectedBufferRevision}; save writes that exact buffer revision atomically over
 * the exact disk revision it names. Editor settings (final newline) apply on save.
 */
final class EditorCalls {

    static final int MAX_DOCUMENTS = 64;
    private static final Pattern BUFFER_REVISION = Pattern.compile("doc-[0-9a-f]{16}:[0-9]{1,16}");
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private final Documents documents;
    private final PanelTargets panels;
    private final FileCalls files;
    private final OperationRunner runner;
    private final Layout layout;

    EditorCalls(Documents documents, Settings settings, PanelTargets panels, FileCalls files, OperationRunner runner, Layout layout) {
        this.documents = documents;
        this.panels = panels;
        this.files = files;
        this.runner = runner;
        this.layout = layout;
        documents.applySettings(settings.editor());
        settings.onChange(section -> {
            if (section.equals("editor")) {
                documents.applySettings(settings.editor());
            }
        });
    }

    /** Opens (or reveals) a project file in the shared editor; one panel per document and workspace. */
    ObjectNode open(Session session, JsonNode arguments) {
        Arguments args = Arguments.of(arguments, LayoutCalls.with("workspaceId", "relativePath", "presentation", "expectedRevision"));
        FileCalls.Resolved target = files.resolve(session, args);
        RelativePath path = RelativePath.parse(args.requiredString("relativePath"));
        String presentation = args.choice("presentation", Optional.of("editor"), "editor", "preview", "split");
        if (!presentation.equals("editor")) {
            throw new LomiException(ErrorCode.UNSUPPORTED_CAPABILITY, "presentation " + presentation + " (image previews) is not available on this host");
        }
        long expected = Revisions.expected(args);
        String projectKey = target.listed().project().id().value();
        return runner.immediate(LayoutCalls.request(session, "lomi_editor_open", arguments, args, target.listed(), path.toString(), expected), () -> {
            Revisions.require(expected, layout.revision());
            target.files().read(path);
        }, operation -> {
            Document document = documents.open(projectKey, target.files(), path);
            return layout.change(OptionalLong.of(expected), edit -> {
                WorkspaceView view = edit.view(target.listed().workspace().id());
                Optional<Panel> existing = view.panels().stream().filter(p -> p.documentId().filter(document.id()::equals).isPresent()).findFirst();
                Panel panel;
                if (existing.isPresent()) {
                    panel = existing.get();
                    edit.focus(view.workspace().id(), panel.id());
                } else {
                    panel = edit.addPanel(view.workspace().id(), PanelKind.EDITOR, path.name(), Optional.empty(), Optional.of(session.id().value()),
                            Optional.empty(), path.toString(), Optional.of(document.id()));
                }
                ObjectNode result = LayoutCalls.result("editor_opened", edit.newRevision());
                result.put("workspaceId", view.workspace().id().value());
                result.put("panelId", panel.id());
                describe(result, document);
                return result;
            });
        });
    }

    ObjectNode read(Session session, JsonNode arguments) {
        Arguments args = Arguments.of(arguments, "workspaceId", "panelId", "relativePath", "documentId", "expectedBufferRevision", "startUtf16", "maxChars");
        Bound bound = bind(session, args);
        int start = args.integer("startUtf16", 0, Integer.MAX_VALUE, OptionalInt.of(0));
        int maxChars = args.integer("maxChars", 2, 8192, OptionalInt.of(4096));
        Optional<String> expected = args.optionalString("expectedBufferRevision").map(EditorCalls::bufferRevision);
        TextPage page = bound.document.read(start, maxChars, expected);
        ObjectNode data = JSON.objectNode();
        data.put("kind", "editor_text");
        data.put("workspaceId", bound.target.workspace().value());
        data.put("panelId", bound.target.panel().id());
        data.put("documentId", bound.document.id());
        data.put("bufferRevision", bound.document.bufferRevision());
        data.put("diskRevision", bound.document.diskRevision());
        data.put("dirty", bound.document.dirty());
        data.put("changedOnDisk", changedOnDisk(bound));
        data.put("text", page.text());
        data.put("startUtf16", page.startUtf16());
        data.put("nextUtf16", page.nextUtf16());
        data.put("totalUtf16", page.totalUtf16());
        data.put("truncated", page.truncated());
        return data;
    }

    ObjectNode applyEdits(Session session, JsonNode arguments) {
        Arguments args = Arguments.of(arguments, LayoutCalls.with("workspaceId", "panelId", "relativePath", "documentId", "expectedBufferRevision",
                "expectedDiskRevision", "edits", "expectedRevision"));
        Bound bound = bind(session, args);
        requireDocumentId(args);
        String buffer = bufferRevision(args.requiredString("expectedBufferRevision"));
        String disk = FileCalls.sha256(args.requiredString("expectedDiskRevision"));
        List<Edit> edits = edits(args.raw("edits"));
        long expected = Revisions.expected(args);
        Document document = bound.document;
        return runner.immediate(LayoutCalls.request(session, "lomi_editor_apply_edits", arguments, args, bound.target.listed(), document.id(), expected),
                () -> {
                    Revisions.require(expected, layout.revision());
                    requireRevisions(document, buffer, disk);
                }, operation -> {
                    EditResult edited = document.apply(buffer, edits);
                    ObjectNode result = JSON.objectNode();
                    result.put("kind", "editor_edited");
                    result.put("documentId", document.id());
                    result.put("bufferRevision", edited.bufferRevision());
                    result.put("lengthUtf16", edited.lengthUtf16());
                    result.put("dirty", document.dirty());
                    return result;
                });
    }

    ObjectNode save(Session session, JsonNode arguments) {
        Arguments args = Arguments.of(arguments, LayoutCalls.with("workspaceId", "panelId", "relativePath", "documentId", "expectedBufferRevision",
                "expectedDiskRevision", "expectedRevision"));
        Bound bound = bind(session, args);
        requireDocumentId(args);
        String buffer = bufferRevision(args.requiredString("expectedBufferRevision"));
        String disk = FileCalls.sha256(args.requiredString("expectedDiskRevision"));
        long expected = Revisions.expected(args);
        Document document = bound.document;
        FileCalls.Resolved target = files.resolve(session, args);
        return runner.immediate(LayoutCalls.request(session, "lomi_editor_save", arguments, args, bound.target.listed(), document.id(), expected), () -> {
            Revisions.require(expected, layout.revision());
            requireRevisions(document, buffer, disk);
            if (!target.files().read(document.path()).diskRevision().equals(disk)) {
                throw new LomiException(ErrorCode.REVISION_CONFLICT, "the file changed on disk since " + disk + "; the buffer was not saved");
            }
        }, operation -> {
            SaveResult saved = document.save(target.files(), buffer, disk);
            ObjectNode result = JSON.objectNode();
            result.put("kind", "editor_saved");
            result.put("documentId", document.id());
            result.put("bufferRevision", saved.bufferRevision());
            result.put("diskRevision", saved.diskRevision());
            result.put("byteLength", Integer.toString(saved.bytes()));
            return result;
        });
    }

    String runtimeState(Panel panel) {
        return panel.documentId().flatMap(documents::find).isPresent() ? "ready" : "exited";
    }

    boolean dirty(Panel panel) {
        return panel.documentId().flatMap(documents::find).map(Document::dirty).orElse(false);
    }

    void end(Panel panel) {
        panel.documentId().ifPresent(documents::close);
    }

    private boolean changedOnDisk(Bound bound) {
        try {
            return bound.document.changedOnDisk(files.folderOf(bound.target.listed()));
        } catch (LomiException e) {
            return true;
        }
    }

    private static void describe(ObjectNode result, Document document) {
        result.put("documentId", document.id());
        result.put("bufferRevision", document.bufferRevision());
        result.put("diskRevision", document.diskRevision());
        result.put("dirty", document.dirty());
        result.put("encoding", document.encoding().wire());
        result.put("lineEndings", document.lineEndings().wire());
        result.put("lengthUtf16", document.lengthUtf16());
    }

    private static void requireRevisions(Document document, String buffer, String disk) {
        if (!document.bufferRevision().equals(buffer)) {
            throw new LomiException(ErrorCode.REVISION_CONFLICT, "the buffer is at " + document.bufferRevision() + ", not " + buffer + "; read it again");
        }
        if (!document.diskRevision().equals(disk)) {
            throw new LomiException(ErrorCode.REVISION_CONFLICT, "the buffer was loaded from disk revision " + document.diskRevision() + ", not " + disk);
        }
    }

    private static void requireDocumentId(Arguments args) {
        args.requiredString("documentId");
    }

    /** The editor panel, its open document, checked against relativePath and documentId. */
    private Bound bind(Session session, Arguments args) {
        PanelTargets.PanelTarget target = panels.panel(session, args);
        Panel panel = target.panel();
        if (panel.kind() != PanelKind.EDITOR) {
            throw new LomiException(ErrorCode.TARGET_NOT_FOUND, "panel " + panel.id() + " is not an editor");
        }
        RelativePath path = RelativePath.parse(args.requiredString("relativePath"));
        if (!path.toString().equals(panel.cwd())) {
            throw new LomiException(ErrorCode.STALE_GENERATION, "panel " + panel.id() + " shows " + panel.cwd() + ", not " + path);
        }
        Document document = panel.documentId().flatMap(documents::find).orElseThrow(() -> new LomiException(ErrorCode.TARGET_NOT_FOUND,
                "the buffer of panel " + panel.id() + " is not loaded (buffers do not survive a broker restart); open the file again"));
        Optional<String> documentId = args.optionalString("documentId");
        if (documentId.isPresent() && !documentId.get().equals(document.id())) {
            throw new LomiException(ErrorCode.STALE_GENERATION, "panel " + panel.id() + " shows document " + document.id() + ", not " + documentId.get());
        }
        return new Bound(target, document);
    }

    private record Bound(PanelTargets.PanelTarget target, Document document) {}

    private static String bufferRevision(String value) {
        if (!BUFFER_REVISION.matcher(value).matches()) {
            throw Arguments.invalid("a bufferRevision looks like doc-<16 hex>:<n>");
        }
        return value;
    }

    private static List<Edit> edits(JsonNode node) {
        if (node == null || !node.isArray() || node.isEmpty() || node.size() > 64) {
            throw Arguments.invalid("edits is an array of 1-64 {fromUtf16, toUtf16, insert}");
        }
        List<Edit> edits = new ArrayList<>();
        for (JsonNode item : node) {
            if (!item.isObject()) {
                throw Arguments.invalid("every edit is an object {fromUtf16, toUtf16, insert}");
            }
            Arguments edit;
            try {
                edit = Arguments.of(item, "fromUtf16", "toUtf16", "insert");
            } catch (LomiException e) {
                throw Arguments.invalid("edits: " + e.getMessage());
            }
            edits.add(new Edit(edit.integer("fromUtf16", 0, 16 << 20, OptionalInt.empty()), edit.integer("toUtf16", 0, 16 << 20, OptionalInt.empty()),
                    edit.optionalString("insert").orElse("")));
        }
        return edits;
    }

    /** Registers the handlers of the tools this class serves. */
    void register(ToolHandlers handlers) {
    }

    /** The tools of this class not yet bound through their declarations. */
    void registerLegacy(java.util.Map<String, BrokerCalls.LegacyCall> legacy) {
        legacy.put("lomi_editor_open", this::open);
        legacy.put("lomi_editor_read", this::read);
        legacy.put("lomi_editor_apply_edits", this::applyEdits);
        legacy.put("lomi_editor_save", this::save);
    }
}
