package dev.lomicontrol.files.tools;

import dev.lomicontrol.core.DataDirectory;
import dev.lomicontrol.core.WorkspaceId;
import dev.lomicontrol.files.EntryKind;
import dev.lomicontrol.files.ProjectFiles;
import dev.lomicontrol.files.api.FileSpecs;
import dev.lomicontrol.operations.OperationRunner;
import dev.lomicontrol.operations.ToolFeature;
import dev.lomicontrol.operations.ToolHandlers;
import dev.lomicontrol.operations.WorkspaceAccess;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.projects.Layout;
import java.time.Duration;
import org.springframework.stereotype.Component;

/**
 * File tools (SPEC §10 "Files"): list, read and search are reads ({@link FileReads},
 * {@link FileSearches}); {@code lomi_files_mutate} is a durable operation ({@link FileMutations}).
 * Every one starts from the same precondition ({@link FileTargets}: a granted workspace, its
 * project's pinned folder), which the editor, git and artifact tools reach through {@link #resolve},
 * {@link #listed} and {@link #folderOf}.
 */
@Component
public final class FileCalls implements ToolFeature {

    /** How long a search's further pages are kept for the session that ran it. */
    public static final Duration SEARCH_CURSOR_LIFE = Duration.ofSeconds(60);

    private final FileTargets targets;
    private final FileReads reads;
    private final FileSearches searches;
    private final FileMutations mutations;

    /** Trashed files the system trash cannot take are kept under {@code <data directory>/trash-recovery}. */
    public FileCalls(WorkspaceAccess workspaces, OperationRunner runner, Layout layout, DataDirectory data) {
        this.targets = new FileTargets(workspaces);
        this.reads = new FileReads(targets);
        this.searches = new FileSearches(targets, runner.clock());
        this.mutations = new FileMutations(targets, runner, layout, data.root().resolve("trash-recovery"));
    }

    /** The granted workspace and its project's pinned files. */
    public Resolved resolve(Session session, WorkspaceId workspace) {
        return targets.resolve(session, workspace);
    }

    public record Resolved(WorkspaceAccess.Listed listed, ProjectFiles files) {}

    /** The granted workspace {@code id} (TARGET_NOT_FOUND otherwise), for callers that need no files. */
    public WorkspaceAccess.Listed listed(Session session, WorkspaceId id) {
        return targets.listed(session, id);
    }

    /** The pinned files of a resolved workspace's project. */
    public ProjectFiles folderOf(WorkspaceAccess.Listed listed) {
        return targets.folderOf(listed);
    }

    public static FileSpecs.Encoding encoding(dev.lomicontrol.files.TextEncoding encoding) {
        return FileSpecs.Encoding.valueOf(encoding.name());
    }

    public static FileSpecs.LineEndings lineEndings(dev.lomicontrol.files.LineEndings endings) {
        return FileSpecs.LineEndings.valueOf(endings.name());
    }

    public static FileSpecs.EntryType type(EntryKind kind) {
        return kind == EntryKind.FILE ? FileSpecs.EntryType.FILE : FileSpecs.EntryType.DIRECTORY;
    }

    /** Registers the handlers of the tools this feature serves. */
    @Override
    public void register(Wiring wiring) {
        ToolHandlers handlers = wiring.handlers();
        handlers.on(FileSpecs.LIST, reads::list);
        handlers.on(FileSpecs.READ, reads::read);
        handlers.on(FileSpecs.SEARCH, searches::search);
        handlers.on(FileSpecs.MUTATE, mutations::mutate);
    }
}
