package dev.lomicontrol.files.tools;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.core.ProjectId;
import dev.lomicontrol.files.ProjectFiles;
import dev.lomicontrol.projects.Project;
import dev.lomicontrol.projects.Projects;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One {@link ProjectFiles} per project, pinned to the folder's identity recorded when the project
 * was approved: a folder replaced since (moved away, swapped for a link or another directory) is
 * refused with REVISION_CONFLICT instead of being trusted under the old name.
 */
public final class ProjectFolders {

    private final Map<ProjectId, ProjectFiles> pinned = new ConcurrentHashMap<>();

    public ProjectFiles of(Project project) {
        ProjectFiles files = pinned.computeIfAbsent(project.id(), id -> open(project));
        if (!project.rootIdentity().isEmpty() && !project.rootIdentity().equals(identity(project))) {
            pinned.remove(project.id());
            throw new LomiException(
                    ErrorCode.REVISION_CONFLICT,
                    "the project folder " + project.root()
                            + " was replaced since it was approved; ask the admin to add it again");
        }
        return files;
    }

    private static ProjectFiles open(Project project) {
        return new ProjectFiles(project.root());
    }

    private static String identity(Project project) {
        try {
            return Projects.identity(project.root());
        } catch (LomiException e) {
            throw new LomiException(
                    ErrorCode.REVISION_CONFLICT,
                    "the project folder " + project.root() + " is gone: " + e.getMessage());
        }
    }
}
