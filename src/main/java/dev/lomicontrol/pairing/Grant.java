package dev.lomicontrol.pairing;

import dev.lomicontrol.core.ProjectId;
import dev.lomicontrol.core.Scope;
import java.util.Set;

/**
 * What an approved session may touch: the listed projects (or every current and future project
 * when {@code allProjects}, as YOLO and a flagless approval grant), the scopes, and the Android
 * devices and packages ({@link AndroidGrant}).
 */
public record Grant(boolean allProjects, Set<ProjectId> projects, Set<String> scopes, AndroidGrant android) {

    public Grant {
        projects = Set.copyOf(projects);
        scopes = Set.copyOf(scopes);
    }

    /** A grant without Android devices or packages. */
    public Grant(boolean allProjects, Set<ProjectId> projects, Set<String> scopes) {
        this(allProjects, projects, scopes, AndroidGrant.NONE);
    }

    /** YOLO's grant: every project, the full scope set, every Android device and package. */
    public static Grant full() {
        return new Grant(true, Set.of(), Scopes.all(), AndroidGrant.EVERYTHING);
    }

    public boolean covers(ProjectId project) {
        return allProjects || projects.contains(project);
    }

    public boolean allows(String scope) {
        return scopes.contains(scope);
    }

    /** Whether the grant holds {@code scope} ({@link Scope#NONE}, the helper's own tools' scope, is always held). */
    public boolean allows(Scope scope) {
        return scope.isNone() || scopes.contains(scope.name());
    }
}
