package dev.lomicontrol.terminal;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Each project's own build-tool caches (security review 2026-12-06, N5). The user's caches
 * ({@code ~/.m2}, {@code ~/.gradle}, {@code ~/.npm}, {@code ~/.cargo}, {@code ~/.cache}) are
 * read-only in every shell, like the rest of the home: a shell that could write them could plant a
 * plugin jar, a wrapper distribution, {@code ~/.cargo/bin/cargo} or a Gradle init script that runs
 * later as the user, outside the sandbox, in every project and in lomi-control's own rebuild. A
 * shell writes its project's caches instead, which no other project's shell and nothing outside
 * the sandbox uses; the variables below point the tools at them, with the user's caches as a
 * read-only lower layer where the tool has one.
 */
final class ProjectCaches {

    /** The caches of one project, below its directory (and below the mount point in the shell). */
    static final List<String> KINDS = List.of("m2-repository", "gradle", "npm", "cargo", "cache");

    private ProjectCaches() {}

    /**
     * The directory of the caches of the project at {@code root} (a real path), under
     * {@code caches}, created 0700 with its subdirectories when missing.
     */
    static Path create(Path caches, Path root) {
        Path own = caches.resolve(key(root));
        try {
            for (Path dir : List.of(caches, own)) {
                if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
                    Files.createDirectories(
                            dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
                }
            }
            for (String kind : KINDS) {
                Path dir = own.resolve(kind);
                if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
                    Files.createDirectory(dir);
                }
            }
            return own.toRealPath();
        } catch (IOException e) {
            throw new LomiException(
                    ErrorCode.APP_UNAVAILABLE, "cannot create the project's sandbox caches " + own + ": " + e, e);
        }
    }

    /**
     * The variables that point the build tools at the caches mounted at {@code mount}: Maven's
     * local repository (with the user's as its read-only tail, Maven 3.9+), Gradle's user home (with
     * the user's dependency cache as its read-only cache), Cargo's home, npm's cache and the XDG
     * cache directory (pip, Go's build cache, pre-commit, corepack, …).
     */
    static Map<String, String> environment(Path mount, Path home) {
        Map<String, String> environment = new LinkedHashMap<>();
        String maven = "-Dmaven.repo.local=" + mount.resolve("m2-repository");
        Path userRepository = home.resolve(".m2/repository");
        if (Files.isDirectory(userRepository)) {
            maven += " -Dmaven.repo.local.tail=" + userRepository;
        }
        environment.put("MAVEN_OPTS", maven);
        environment.put("GRADLE_USER_HOME", mount.resolve("gradle").toString());
        Path gradleCaches = home.resolve(".gradle/caches");
        if (Files.isDirectory(gradleCaches.resolve("modules-2"))) {
            environment.put("GRADLE_RO_DEP_CACHE", gradleCaches.toString());
        }
        environment.put("CARGO_HOME", mount.resolve("cargo").toString());
        environment.put("npm_config_cache", mount.resolve("npm").toString());
        environment.put("XDG_CACHE_HOME", mount.resolve("cache").toString());
        return environment;
    }

    /** The name of a project's cache directory: a hash of its real path (one project, one directory). */
    static String key(Path root) {
        try {
            byte[] digest =
                    MessageDigest.getInstance("SHA-256").digest(root.toString().getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 12);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing", e);
        }
    }
}
