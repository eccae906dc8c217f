package dev.lomicontrol.projects;

import dev.lomicontrol.core.ProjectId;
import dev.lomicontrol.core.WorkspaceId;

/** A workspace of a project. */
public record Workspace(WorkspaceId id, ProjectId projectId, String name) {}
