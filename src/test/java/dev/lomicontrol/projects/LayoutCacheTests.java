package dev.lomicontrol.projects;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.core.WorkspaceId;
import dev.lomicontrol.ledger.Ledger;
import dev.lomicontrol.ledger.LedgerProperties;
import dev.lomicontrol.testing.MutableClock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Projects, workspace views and the domain revision are served from memory between changes, and
 * every change — through {@link Projects} or {@link Layout#change}, committed or refused — is seen by
 * the very next read, also while other threads keep reading.
 */
class LayoutCacheTests {

    @TempDir
    Path temp;

    private Ledger ledger;
    private Projects projects;
    private Layout layout;

    @BeforeEach
    void open() {
        MutableClock clock = MutableClock.startingAt("2026-12-02T02:00:00Z");
        ledger = Ledger.open(temp.resolve("agent-control"), LedgerProperties.defaults(), clock, new SecureRandom());
        projects = new Projects(ledger, clock);
        layout = new Layout(projects, ledger, clock, new SecureRandom());
    }

    @AfterEach
    void close() {
        ledger.close();
    }

    @Test
    void readsBetweenChangesComeFromMemoryAndEveryChangeIsSeenByTheNextRead() throws Exception {
        Project first = projects.add(folder("a"), Optional.of("a"));
        WorkspaceId workspace = first.workspaces().get(0).id();
        List<Project> listed = projects.list();
        WorkspaceView view = layout.view(workspace);
        long revision = layout.revision();
        assertThat(projects.list()).as("no change: the same cached list").isSameAs(listed);
        assertThat(layout.view(workspace)).as("no change: the same cached view").isSameAs(view);
        assertThat(projects.revision()).isEqualTo(revision);

        Project second = projects.add(folder("b"), Optional.of("b"));
        assertThat(projects.list()).extracting(Project::id).containsExactlyInAnyOrder(first.id(), second.id());
        assertThat(layout.revision()).isEqualTo(revision + 1);

        layout.change(OptionalLong.of(revision + 1), edit -> {
            edit.renameWorkspace(workspace, "renamed");
            return null;
        });
        assertThat(layout.view(workspace).workspace().name()).isEqualTo("renamed");
        assertThat(projects.get(first.id()).orElseThrow().workspaces().get(0).name())
                .isEqualTo("renamed");
        assertThat(layout.view(workspace).revision()).isEqualTo(revision + 2).isEqualTo(layout.revision());

        projects.remove(second.id());
        assertThat(projects.list()).extracting(Project::id).containsExactly(first.id());
        assertThat(projects.get(second.id())).isEmpty();
    }

    @Test
    void aRefusedChangeChangesNothingAndAnUnknownWorkspaceIsNeverRemembered() throws Exception {
        Project project = projects.add(folder("a"), Optional.of("a"));
        WorkspaceId workspace = project.workspaces().get(0).id();
        WorkspaceView before = layout.view(workspace);
        assertThatThrownBy(() -> layout.change(OptionalLong.of(before.revision() - 1), edit -> {
                    edit.renameWorkspace(workspace, "never");
                    return null;
                }))
                .isInstanceOfSatisfying(
                        LomiException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.REVISION_CONFLICT));
        assertThat(layout.view(workspace)).isEqualTo(before);

        WorkspaceId later = new WorkspaceId("ws-0123456789abcdef");
        assertThatThrownBy(() -> layout.view(later))
                .isInstanceOfSatisfying(
                        LomiException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.TARGET_NOT_FOUND));
        WorkspaceView created =
                layout.change(OptionalLong.empty(), edit -> edit.createWorkspace(project.id(), "second"));
        assertThat(layout.view(created.workspace().id()).workspace().name()).isEqualTo("second");
    }

    @Test
    void whileOtherThreadsReadTheWriterAlwaysSeesItsOwnChangeNext() throws Exception {
        Project project = projects.add(folder("a"), Optional.of("a"));
        WorkspaceId workspace = project.workspaces().get(0).id();
        AtomicBoolean stop = new AtomicBoolean();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<CompletableFuture<Void>> readers = java.util.stream.IntStream.range(0, 4)
                .mapToObj(i -> CompletableFuture.runAsync(() -> {
                    try {
                        while (!stop.get()) {
                            layout.view(workspace);
                            projects.list();
                        }
                    } catch (Throwable t) {
                        failure.set(t);
                    }
                }))
                .toList();
        try {
            for (int i = 0; i < 50; i++) {
                String name = "name-" + i;
                layout.change(OptionalLong.empty(), edit -> {
                    edit.renameWorkspace(workspace, name);
                    return null;
                });
                assertThat(layout.view(workspace).workspace().name())
                        .as("read right after change %d", i)
                        .isEqualTo(name);
                assertThat(projects.list().get(0).workspaces().get(0).name()).isEqualTo(name);
                assertThat(layout.view(workspace).revision()).isEqualTo(layout.revision());
            }
        } finally {
            stop.set(true);
            CompletableFuture.allOf(readers.toArray(CompletableFuture[]::new)).join();
        }
        assertThat(failure.get()).isNull();
    }

    private Path folder(String name) throws Exception {
        return Files.createDirectories(temp.resolve("projects").resolve(name)).toRealPath();
    }
}
