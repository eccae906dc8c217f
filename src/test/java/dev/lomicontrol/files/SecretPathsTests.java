package dev.lomicontrol.files;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;
import org.junit.jupiter.params.provider.ValueSource;

class SecretPathsTests {

    /** Every rule of SPEC §10, in several letter cases. */
    static final String[] SECRET_NAMES = {
        ".env",
        ".env.local",
        ".ENV",
        ".environment",
        ".git",
        ".GIT",
        ".ssh",
        ".aws",
        ".azure",
        ".gnupg",
        ".codex",
        ".netrc",
        ".npmrc",
        ".pypirc",
        "credentials",
        "Credentials",
        "credentials.json",
        "id_rsa",
        "ID_RSA",
        "id_ed25519",
        "server.pem",
        "tls.key",
        "cert.P12",
        "a.pfx",
        "release.keystore",
        "store.jks"
    };

    @ParameterizedTest
    @FieldSource("SECRET_NAMES")
    void secretNamesAreRecognisedCaseInsensitively(String name) {
        assertThat(SecretPaths.isSecretName(name)).isTrue();
        assertThat(SecretPaths.isSecret(RelativePath.parse("src/" + name + "/x")))
                .isTrue();
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "env",
                "my.env",
                "git",
                ".gitignore",
                ".github",
                "id_rsa.pub",
                "credentials.txt",
                "key",
                "keys.md",
                "pem",
                "README.md",
                "ssh",
                "x.jks.bak"
            })
    void similarNamesAreNotSecret(String name) {
        assertThat(SecretPaths.isSecretName(name)).isFalse();
        assertThat(SecretPaths.isSecret(RelativePath.parse("src/" + name))).isFalse();
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "id_ecdsa",
                "id_dsa",
                "ID_ECDSA_SK",
                "id_ed25519_sk",
                ".git-credentials",
                ".kube",
                ".docker",
                ".terraformrc",
                ".pgpass",
                "putty.ppk",
                "admin.token",
                "registration-key.pk8",
                "control.sqlite3"
            })
    void theReviewsMissingCredentialNamesAndTheBrokersOwnFilesAreSecret(String name) {
        assertThat(SecretPaths.isSecretName(name)).as("F12: %s", name).isTrue();
        assertThat(SecretPaths.isSecret(RelativePath.parse("home/" + name + "/x")))
                .isTrue();
    }

    @Test
    void dockersCredentialFileIsSecret() {
        assertThat(SecretPaths.isSecret(RelativePath.parse("home/.docker/config.json")))
                .isTrue();
    }

    @Test
    void theRootIsNotSecret() {
        assertThat(SecretPaths.isSecret(RelativePath.root())).isFalse();
    }
}
