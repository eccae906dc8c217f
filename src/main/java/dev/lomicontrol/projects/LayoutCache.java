package dev.lomicontrol.projects;

import dev.lomicontrol.core.WorkspaceId;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The layout's durable state (projects, workspace views, the domain revision) as of the last
 * commit, so that a call reads it from memory instead of SQLite. Every write of the layout's tables
 * goes through {@link Projects} or {@link Layout#change}, and each calls {@link #changed} after its
 * write returns (committed or not); a read loads from the store once per change.
 *
 * <p>Why that is never stale: a value is cached under the generation its reader saw <em>before</em>
 * reading the store, and the generation moves only after the commit. A reader that saw generation
 * {@code g} therefore started after every commit counted in {@code g}; a commit it may have missed
 * moves the generation past {@code g} before anyone can ask again. Cached values are immutable.
 */
final class LayoutCache {

    private final AtomicLong generation = new AtomicLong();
    private volatile Entry entry = new Entry(-1);

    /** The layout tables changed (or may have): everything cached so far is dropped. */
    void changed() {
        generation.incrementAndGet();
    }

    List<Project> projects(Supplier<List<Project>> load) {
        Entry current = current();
        List<Project> projects = current.projects;
        if (projects == null) {
            projects = List.copyOf(load.get());
            current.projects = projects;
        }
        return projects;
    }

    long revision(Supplier<Long> load) {
        Entry current = current();
        Long revision = current.revision;
        if (revision == null) {
            revision = load.get();
            current.revision = revision;
        }
        return revision;
    }

    /** A view as read by {@code load}; a refusal (an unknown workspace) is thrown and not remembered. */
    WorkspaceView view(WorkspaceId workspace, Supplier<WorkspaceView> load) {
        Entry current = current();
        WorkspaceView view = current.views.get(workspace);
        if (view == null) {
            view = load.get();
            current.views.put(workspace, view);
        }
        return view;
    }

    private Entry current() {
        long now = generation.get();
        Entry current = entry;
        if (current.generation != now) {
            current = new Entry(now);
            entry = current;
        }
        return current;
    }

    /** What was read under one generation. */
    private static final class Entry {
        final long generation;
        volatile @Nullable List<Project> projects;
        volatile @Nullable Long revision;
        final Map<WorkspaceId, WorkspaceView> views = new ConcurrentHashMap<>();

        Entry(long generation) {
            this.generation = generation;
        }
    }
}
