package dev.lomicontrol.chat;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import java.net.URI;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A model connection the admin configured: an OpenAI-compatible endpoint (OpenAI, Ollama, vLLM,
 * LM Studio, llama.cpp) or Anthropic's messages API. The key is named, never held: the environment
 * variable {@code apiKeyEnv} or the 0600 file {@code apiKeyFile} is read when a request starts.
 */
public record ModelConnection(
        String id,
        Kind kind,
        String baseUrl,
        String model,
        Optional<String> apiKeyEnv,
        Optional<String> apiKeyFile,
        int maxOutputTokens) {

    private static final Pattern ID = Pattern.compile("[A-Za-z0-9_-]{1,100}");
    private static final Pattern ENV = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,127}");

    public enum Kind {
        OPENAI,
        ANTHROPIC;

        public String wire() {
            return name().toLowerCase(Locale.ROOT);
        }

        public static Kind fromWire(String value) {
            for (Kind kind : values()) {
                if (kind.wire().equals(value)) {
                    return kind;
                }
            }
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, "--kind is openai or anthropic, not " + value);
        }
    }

    public ModelConnection {
        if (!ID.matcher(id).matches()) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, "a connection id is 1-100 of A-Za-z0-9_-");
        }
        URI uri;
        try {
            uri = URI.create(baseUrl);
        } catch (IllegalArgumentException e) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, "--base-url is not a URL: " + e.getMessage());
        }
        if (!("http".equals(uri.getScheme()) || "https".equals(uri.getScheme()))
                || uri.getHost() == null
                || uri.getUserInfo() != null
                || uri.getQuery() != null
                || uri.getFragment() != null) {
            throw new LomiException(
                    ErrorCode.INVALID_ARGUMENT,
                    "--base-url is an http(s) URL with a host and no user info, query or fragment");
        }
        if (model.isEmpty() || model.length() > 256 || model.chars().anyMatch(Character::isISOControl)) {
            throw new LomiException(
                    ErrorCode.INVALID_ARGUMENT, "--model is 1-256 characters without control characters");
        }
        if (apiKeyEnv.isPresent() && apiKeyFile.isPresent()) {
            throw new LomiException(
                    ErrorCode.INVALID_ARGUMENT, "name the key by --api-key-env or --api-key-file, not both");
        }
        if (apiKeyEnv.isPresent() && !ENV.matcher(apiKeyEnv.get()).matches()) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, "--api-key-env is an environment variable name");
        }
        if (apiKeyFile.isPresent() && !apiKeyFile.get().startsWith("/")) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, "--api-key-file is an absolute path");
        }
        if (maxOutputTokens < 1 || maxOutputTokens > 1_048_576) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, "--max-output-tokens is 1-1048576");
        }
    }

    /** Where the key comes from, for listings: {@code env:NAME}, {@code file:/path} or {@code none}. */
    public String keySource() {
        return apiKeyEnv
                .map(e -> "env:" + e)
                .or(() -> apiKeyFile.map(f -> "file:" + f))
                .orElse("none");
    }
}
