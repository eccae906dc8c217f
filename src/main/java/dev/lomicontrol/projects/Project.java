package dev.lomicontrol.projects;

import dev.lomicontrol.core.ProjectId;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

/**
 * A project folder the admin added or approved, with its workspaces.
 *
 * @param rootIdentity {@code "<device>:<inode>"} of the folder when it was approved (empty for
 *     projects added before this was recorded); file access refuses a folder replaced since
 */
public record Project(
        ProjectId id, String name, Path root, Instant addedAt, List<Workspace> workspaces, String rootIdentity) {}
