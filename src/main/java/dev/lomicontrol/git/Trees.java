package dev.lomicontrol.git;

import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import org.eclipse.jgit.diff.DiffEntry;
import org.eclipse.jgit.diff.DiffFormatter;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectReader;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevWalk;
import org.eclipse.jgit.treewalk.AbstractTreeIterator;
import org.eclipse.jgit.treewalk.CanonicalTreeParser;
import org.eclipse.jgit.treewalk.EmptyTreeIterator;
import org.eclipse.jgit.treewalk.TreeWalk;

/** Tree iterators and diff scans over commits, the index and the worktree. */
final class Trees {

    private Trees() {}

    /** HEAD's tree, or an empty tree before the first commit. */
    static AbstractTreeIterator headTree(Repository repo) throws IOException {
        ObjectId head = repo.resolve("HEAD^{tree}");
        return head == null ? new EmptyTreeIterator() : tree(repo, head);
    }

    /** The tree of a commit's first parent, or an empty tree for a root commit. */
    static AbstractTreeIterator parentTree(Repository repo, RevCommit commit) throws IOException {
        if (commit.getParentCount() == 0) {
            return new EmptyTreeIterator();
        }
        try (RevWalk walk = new RevWalk(repo)) {
            return tree(repo, walk.parseCommit(commit.getParent(0)).getTree());
        }
    }

    static AbstractTreeIterator tree(Repository repo, ObjectId treeId) throws IOException {
        try (ObjectReader reader = repo.newObjectReader()) {
            CanonicalTreeParser parser = new CanonicalTreeParser();
            parser.reset(reader, treeId);
            return parser;
        }
    }

    /** All differences between two sides, optionally pairing renames. */
    static List<DiffEntry> scan(Repository repo, AbstractTreeIterator a, AbstractTreeIterator b, boolean renames)
            throws IOException {
        try (DiffFormatter formatter = new DiffFormatter(OutputStream.nullOutputStream())) {
            formatter.setRepository(repo);
            formatter.setDetectRenames(renames);
            return formatter.scan(a, b);
        }
    }

    /** True when HEAD exists and holds {@code path}. */
    static boolean inHead(Repository repo, String path) throws IOException {
        ObjectId tree = repo.resolve("HEAD^{tree}");
        if (tree == null) {
            return false;
        }
        try (TreeWalk walk = TreeWalk.forPath(repo, path, tree)) {
            return walk != null;
        }
    }

    /** The wire name of a change type. */
    static String changeName(DiffEntry.ChangeType type) {
        return switch (type) {
            case ADD -> "added";
            case MODIFY -> "modified";
            case DELETE -> "deleted";
            case RENAME -> "renamed";
            case COPY -> "copied";
        };
    }
}
