package dev.lomicontrol.projects;

import dev.lomicontrol.core.ProjectId;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

/** A project folder the admin added, with its workspaces (one default workspace until the layout model grows). */
public record Project(ProjectId id, String name, Path root, Instant addedAt, List<Workspace> workspaces) {}
