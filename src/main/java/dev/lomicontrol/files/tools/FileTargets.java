package dev.lomicontrol.files.tools;

import dev.lomicontrol.core.WorkspaceId;
import dev.lomicontrol.files.ProjectFiles;
import dev.lomicontrol.operations.WorkspaceAccess;
import dev.lomicontrol.pairing.Session;

/**
 * The precondition every file tool (and the editor, git and artifact tools through {@link FileCalls})
 * starts from, written once: the workspace must be granted to the session (TARGET_NOT_FOUND
 * otherwise), and its project's folder must still be the one approved ({@link ProjectFolders}).
 */
final class FileTargets {

    private final WorkspaceAccess workspaces;
    private final ProjectFolders folders = new ProjectFolders();

    FileTargets(WorkspaceAccess workspaces) {
        this.workspaces = workspaces;
    }

    /** The granted workspace and its project's pinned files. */
    FileCalls.Resolved resolve(Session session, WorkspaceId workspace) {
        WorkspaceAccess.Listed listed = workspaces.resolve(session, workspace);
        return new FileCalls.Resolved(listed, folders.of(listed.project()));
    }

    WorkspaceAccess.Listed listed(Session session, WorkspaceId id) {
        return workspaces.resolve(session, id);
    }

    ProjectFiles folderOf(WorkspaceAccess.Listed listed) {
        return folders.of(listed.project());
    }
}
