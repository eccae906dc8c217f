package dev.lomicontrol.files.tools;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.Ids;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.core.WorkspaceId;
import dev.lomicontrol.files.ProjectFiles;
import dev.lomicontrol.files.RelativePath;
import dev.lomicontrol.files.SearchMatch;
import dev.lomicontrol.files.SearchQuery;
import dev.lomicontrol.files.SearchResult;
import dev.lomicontrol.files.api.FileResults;
import dev.lomicontrol.files.api.FileSpecs;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.tools.Hex64;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code lomi_files_search}: a search runs once (at most {@value #MAX_SEARCH_MATCHES} matches) and
 * its further pages are served from a copy kept {@link FileCalls#SEARCH_CURSOR_LIFE} for the session
 * that ran it, bound to the same workspace, directory and query (the reference's cursor;
 * CURSOR_EXPIRED after). At most {@value #MAX_KEPT_SEARCHES} copies are kept, the oldest dropped first.
 */
final class FileSearches {

    static final int MAX_SEARCH_MATCHES = 256;
    private static final int MAX_KEPT_SEARCHES = 32;
    private static final Pattern SEARCH_CURSOR = Pattern.compile("([0-9a-f]{16}):([1-9][0-9]{0,8})");

    private final FileTargets targets;
    private final Clock clock;
    private final SecureRandom random = new SecureRandom();
    private final Map<String, KeptSearch> searches = new LinkedHashMap<>();

    FileSearches(FileTargets targets, Clock clock) {
        this.targets = targets;
        this.clock = clock;
    }

    FileResults.Found search(Session session, FileSpecs.SearchInput in) {
        FileCalls.Resolved target = targets.resolve(session, in.workspaceId());
        RelativePath directory = RelativePath.parse(in.relativeDirectory());
        SearchKey key =
                new SearchKey(session.id().value(), target.listed().workspace().id(), directory.toString(), in.query());
        Instant now = clock.instant();
        if (in.cursor().isPresent()) {
            return nextPage(key, target.files(), in.cursor().get(), in.limit(), now);
        }
        FileSpecs.Query q = in.query();
        SearchQuery query = new SearchQuery(
                q.text(),
                q.regex(),
                q.caseSensitive(),
                q.wholeWord(),
                FileSpecs.Query.globs(q.include(), "include"),
                FileSpecs.Query.globs(q.exclude(), "exclude"));
        SearchResult result = target.files().search(directory, query, MAX_SEARCH_MATCHES);
        String id = Ids.randomHex(random, 8);
        if (result.matches().size() > in.limit()) {
            synchronized (searches) {
                forgetExpired(now);
                searches.put(
                        id, new KeptSearch(id, key, target.files(), result, now.plus(FileCalls.SEARCH_CURSOR_LIFE)));
                Iterator<String> oldest = searches.keySet().iterator();
                while (searches.size() > MAX_KEPT_SEARCHES) {
                    oldest.next();
                    oldest.remove();
                }
            }
        }
        return page(key, id, result, 0, in.limit());
    }

    /** The page a cursor names, from the kept copy of the same search (CURSOR_EXPIRED when there is none). */
    private FileResults.Found nextPage(SearchKey key, ProjectFiles files, String cursor, int limit, Instant now) {
        Matcher matcher = SEARCH_CURSOR.matcher(cursor);
        Optional<KeptSearch> kept;
        synchronized (searches) {
            forgetExpired(now);
            kept = matcher.matches() ? Optional.ofNullable(searches.get(matcher.group(1))) : Optional.empty();
        }
        int offset = kept.isEmpty() ? 0 : Integer.parseInt(matcher.group(2));
        if (kept.isEmpty()
                || !kept.get().key.equals(key)
                || kept.get().files != files
                || offset >= kept.get().result.matches().size()) {
            throw new LomiException(
                    ErrorCode.CURSOR_EXPIRED,
                    "this search cursor expired (60 s) or belongs to another search; search again without a cursor");
        }
        return page(key, kept.get().id, kept.get().result, offset, limit);
    }

    private static FileResults.Found page(SearchKey key, String id, SearchResult result, int offset, int limit) {
        List<SearchMatch> all = result.matches();
        int end = Math.min(all.size(), offset + limit);
        List<FileResults.Match> matches = all.subList(offset, end).stream()
                .map(m -> new FileResults.Match(
                        m.relativePath(),
                        new Hex64(m.diskRevision()),
                        m.line(),
                        m.columnUtf16(),
                        m.lengthUtf16(),
                        m.preview()))
                .toList();
        boolean hasMore = end < all.size();
        return new FileResults.Found(
                key.workspace,
                key.relativeDirectory,
                matches,
                result.truncated(),
                result.filesScanned(),
                result.skipped(),
                hasMore,
                hasMore ? Optional.of(id + ":" + end) : Optional.empty());
    }

    private void forgetExpired(Instant now) {
        searches.values().removeIf(kept -> !now.isBefore(kept.expires));
    }

    /** What a search cursor is bound to: the session that searched, the workspace, the directory and the query. */
    private record SearchKey(String owner, WorkspaceId workspace, String relativeDirectory, FileSpecs.Query query) {}

    private record KeptSearch(String id, SearchKey key, ProjectFiles files, SearchResult result, Instant expires) {}
}
