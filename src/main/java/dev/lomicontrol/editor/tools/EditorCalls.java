package dev.lomicontrol.editor.tools;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.core.WorkspaceId;
import dev.lomicontrol.editor.Document;
import dev.lomicontrol.editor.Documents;
import dev.lomicontrol.editor.Edit;
import dev.lomicontrol.editor.EditResult;
import dev.lomicontrol.editor.SaveResult;
import dev.lomicontrol.editor.api.EditorSpecs;
import dev.lomicontrol.files.ClientConfigurationPaths;
import dev.lomicontrol.files.ProjectFiles;
import dev.lomicontrol.files.RelativePath;
import dev.lomicontrol.files.TextPage;
import dev.lomicontrol.files.tools.FileCalls;
import dev.lomicontrol.operations.LivePanels;
import dev.lomicontrol.operations.OperationRunner;
import dev.lomicontrol.operations.PanelTargets;
import dev.lomicontrol.operations.Revisions;
import dev.lomicontrol.operations.ToolFeature;
import dev.lomicontrol.operations.ToolHandlers;
import dev.lomicontrol.operations.WorkspaceAccess;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.projects.Layout;
import dev.lomicontrol.projects.Panel;
import dev.lomicontrol.projects.PanelKind;
import dev.lomicontrol.projects.WorkspaceView;
import dev.lomicontrol.settings.Settings;
import dev.lomicontrol.tools.Decimal;
import dev.lomicontrol.tools.Encoder;
import dev.lomicontrol.tools.Hex64;
import dev.lomicontrol.tools.Token;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.springframework.stereotype.Component;
import tools.jackson.databind.node.ObjectNode;

/**
 * Shared editor buffers (SPEC §10 "Editor"): open returns identities and revisions, never content;
 * read pages the LF-normalized buffer; apply_edits changes the buffer as one undo step checked
 * against one {@code expectedBufferRevision}; save writes that exact buffer revision atomically over
 * the exact disk revision it names. Editor settings (final newline) apply on save. MCP/IDE client
 * configuration opens and reads like any file, but apply_edits and save refuse it (SCOPE_DENIED).
 */
@Component
public final class EditorCalls implements ToolFeature, LivePanels {

    public static final int MAX_DOCUMENTS = 64;

    private final Documents documents;
    private final FileCalls files;
    private final OperationRunner runner;
    private final Layout layout;

    public EditorCalls(Settings settings, PanelTargets panels, FileCalls files, OperationRunner runner, Layout layout) {
        this.documents = new Documents(new java.security.SecureRandom(), MAX_DOCUMENTS);
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
    public ObjectNode open(Session session, EditorSpecs.OpenInput in) {
        FileCalls.Resolved target = files.resolve(session, in.workspaceId());
        RelativePath path = RelativePath.parse(in.relativePath());
        if (in.presentation() != EditorSpecs.Presentation.EDITOR) {
            throw new LomiException(
                    ErrorCode.UNSUPPORTED_CAPABILITY,
                    "presentation " + in.presentation().name().toLowerCase(java.util.Locale.ROOT)
                            + " renders Markdown, SVG or an image in a native preview pane, and this host has no window to render it in; open the file "
                            + "with presentation editor (text) or read its bytes with lomi_files_read / lomi_artifact_import");
        }
        long expected = in.expectedRevision().asLong();
        String projectKey = target.listed().project().id().value();
        return runner.immediate(
                OperationRunner.Request.of(
                        session, EditorSpecs.OPEN, in, target.listed(), path.toString(), OptionalLong.of(expected)),
                () -> {
                    Revisions.require(expected, layout.revision());
                    target.files().read(path);
                },
                operation -> {
                    Document document = documents.open(projectKey, target.files(), path);
                    return layout.change(OptionalLong.of(expected), edit -> {
                        WorkspaceView view =
                                edit.view(target.listed().workspace().id());
                        Optional<Panel> existing = view.panels().stream()
                                .filter(p -> p.documentId()
                                        .filter(document.id()::equals)
                                        .isPresent())
                                .findFirst();
                        Panel panel;
                        if (existing.isPresent()) {
                            panel = existing.get();
                            edit.focus(view.workspace().id(), panel.id());
                        } else {
                            panel = edit.addPanel(
                                    view.workspace().id(),
                                    PanelKind.EDITOR,
                                    path.name(),
                                    Optional.empty(),
                                    Optional.of(session.id().value()),
                                    Optional.empty(),
                                    path.toString(),
                                    Optional.of(document.id()));
                        }
                        return Encoder.encode(new EditorSpecs.Opened(
                                Decimal.of(edit.newRevision()),
                                view.workspace().id(),
                                panel.id(),
                                path.toString(),
                                EditorSpecs.Presentation.EDITOR,
                                document.id(),
                                document.bufferRevision(),
                                new Hex64(document.diskRevision()),
                                document.dirty(),
                                FileCalls.encoding(document.encoding()),
                                FileCalls.lineEndings(document.lineEndings()),
                                document.lengthUtf16()));
                    });
                });
    }

    public EditorSpecs.Text read(Session session, EditorSpecs.ReadInput in) {
        Bound bound = bind(session, in.workspaceId(), in.panelId(), in.relativePath(), in.documentId());
        Document document = bound.document;
        TextPage page = document.read(in.startUtf16(), in.maxChars(), in.expectedBufferRevision());
        return new EditorSpecs.Text(
                bound.listed.workspace().id(),
                bound.panel.id(),
                document.path().toString(),
                document.id(),
                document.bufferRevision(),
                new Hex64(document.diskRevision()),
                document.dirty(),
                changedOnDisk(bound),
                FileCalls.encoding(document.encoding()),
                FileCalls.lineEndings(document.lineEndings()),
                page.text(),
                page.startUtf16(),
                page.nextUtf16(),
                page.totalUtf16(),
                page.truncated());
    }

    public ObjectNode applyEdits(Session session, EditorSpecs.EditsInput in) {
        Bound bound = bind(session, in.workspaceId(), in.panelId(), in.relativePath(), Optional.of(in.documentId()));
        String buffer = in.expectedBufferRevision();
        String disk = in.expectedDiskRevision().value();
        List<Edit> edits = in.edits().stream()
                .map(e -> new Edit(e.fromUtf16(), e.toUtf16(), e.insert()))
                .toList();
        long expected = in.expectedRevision().asLong();
        Document document = bound.document;
        return runner.immediate(
                OperationRunner.Request.of(
                        session, EditorSpecs.APPLY_EDITS, in, bound.listed, document.id(), OptionalLong.of(expected)),
                () -> {
                    Revisions.require(expected, layout.revision());
                    ClientConfigurationPaths.requireWritable(document.path());
                    requireRevisions(document, buffer, disk);
                },
                operation -> {
                    EditResult edited = document.apply(buffer, edits);
                    return Encoder.encode(new EditorSpecs.Edited(
                            document.id(),
                            buffer,
                            edited.bufferRevision(),
                            new Hex64(document.diskRevision()),
                            edited.lengthUtf16(),
                            document.dirty(),
                            edits.size()));
                });
    }

    public ObjectNode save(Session session, EditorSpecs.SaveInput in) {
        Bound bound = bind(session, in.workspaceId(), in.panelId(), in.relativePath(), Optional.of(in.documentId()));
        String buffer = in.expectedBufferRevision();
        String disk = in.expectedDiskRevision().value();
        long expected = in.expectedRevision().asLong();
        Document document = bound.document;
        ProjectFiles folder = files.folderOf(bound.listed);
        return runner.immediate(
                OperationRunner.Request.of(
                        session, EditorSpecs.SAVE, in, bound.listed, document.id(), OptionalLong.of(expected)),
                () -> {
                    Revisions.require(expected, layout.revision());
                    ClientConfigurationPaths.requireWritable(document.path());
                    requireRevisions(document, buffer, disk);
                    if (!folder.read(document.path()).diskRevision().equals(disk)) {
                        throw new LomiException(
                                ErrorCode.REVISION_CONFLICT,
                                "the file changed on disk since " + disk + "; the buffer was not saved");
                    }
                },
                operation -> {
                    SaveResult saved = document.save(folder, buffer, disk);
                    return Encoder.encode(new EditorSpecs.Saved(
                            document.id(),
                            saved.bufferRevision(),
                            new Hex64(disk),
                            new Hex64(saved.diskRevision()),
                            Decimal.of(saved.bytes())));
                });
    }

    @Override
    public Map<PanelKind, LivePanels> panels() {
        return Map.of(PanelKind.EDITOR, this);
    }

    @Override
    public String runtimeState(Panel panel) {
        return panel.documentId().flatMap(documents::find).isPresent() ? "ready" : "exited";
    }

    @Override
    public boolean dirty(Panel panel) {
        return panel.documentId().flatMap(documents::find).map(Document::dirty).orElse(false);
    }

    @Override
    public void end(Panel panel) {
        panel.documentId().ifPresent(documents::close);
    }

    private boolean changedOnDisk(Bound bound) {
        try {
            return bound.document.changedOnDisk(files.folderOf(bound.listed));
        } catch (LomiException e) {
            return true;
        }
    }

    private static void requireRevisions(Document document, String buffer, String disk) {
        if (!document.bufferRevision().equals(buffer)) {
            throw new LomiException(
                    ErrorCode.REVISION_CONFLICT,
                    "the buffer is at " + document.bufferRevision() + ", not " + buffer + "; read it again");
        }
        if (!document.diskRevision().equals(disk)) {
            throw new LomiException(
                    ErrorCode.REVISION_CONFLICT,
                    "the buffer was loaded from disk revision " + document.diskRevision() + ", not " + disk);
        }
    }

    /** The editor panel, its open document, checked against relativePath and documentId. */
    private Bound bind(
            Session session, WorkspaceId workspaceId, Token panelId, String relativePath, Optional<String> documentId) {
        WorkspaceAccess.Listed listed = files.resolve(session, workspaceId).listed();
        Panel panel = layout.view(listed.workspace().id())
                .panel(panelId.value())
                .orElseThrow(() ->
                        new LomiException(ErrorCode.TARGET_NOT_FOUND, "no panel " + panelId + " in this workspace"));
        if (panel.kind() != PanelKind.EDITOR) {
            throw new LomiException(ErrorCode.TARGET_NOT_FOUND, "panel " + panel.id() + " is not an editor");
        }
        RelativePath path = RelativePath.parse(relativePath);
        if (!path.toString().equals(panel.cwd())) {
            throw new LomiException(
                    ErrorCode.STALE_GENERATION, "panel " + panel.id() + " shows " + panel.cwd() + ", not " + path);
        }
        Document document = panel.documentId()
                .flatMap(documents::find)
                .orElseThrow(() -> new LomiException(
                        ErrorCode.TARGET_NOT_FOUND,
                        "the buffer of panel " + panel.id()
                                + " is not loaded (buffers do not survive a broker restart); open the file again"));
        if (documentId.isPresent() && !documentId.get().equals(document.id())) {
            throw new LomiException(
                    ErrorCode.STALE_GENERATION,
                    "panel " + panel.id() + " shows document " + document.id() + ", not " + documentId.get());
        }
        return new Bound(listed, panel, document);
    }

    private record Bound(WorkspaceAccess.Listed listed, Panel panel, Document document) {}

    /** Registers the handlers of the tools this class serves. */
    @Override
    public void register(Wiring wiring) {
        ToolHandlers handlers = wiring.handlers();
        handlers.on(EditorSpecs.OPEN, this::open);
        handlers.on(EditorSpecs.READ, this::read);
        handlers.on(EditorSpecs.APPLY_EDITS, this::applyEdits);
        handlers.on(EditorSpecs.SAVE, this::save);
    }
}
