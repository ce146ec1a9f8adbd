package io.duetdb.common.datadir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;

class DataDirectoryTest {
    @Test
    void stampsANewDirectoryAndReopensIt(@TempDir Path root) {
        Path path = root.resolve("pd-1");
        try (DataDirectory directory = DataDirectory.open(path, "placement")) {
            assertThat(directory.resolve(DataDirectory.STAMP_FILE)).exists();
        }
        try (DataDirectory directory = DataDirectory.open(path, "placement")) {
            assertThat(directory.path()).isEqualTo(path.toAbsolutePath());
        }
    }

    @Test
    void refusesASecondOpenWhileLocked(@TempDir Path root) {
        try (DataDirectory directory = DataDirectory.open(root, "placement")) {
            assertThatThrownBy(() -> DataDirectory.open(root, "placement"))
                    .isInstanceOf(DuetException.class).hasMessageContaining("is in use");
        }
    }

    @Test
    void refusesAnotherFormatOrComponent(@TempDir Path root) throws Exception {
        DataDirectory.open(root, "placement").close();
        assertThatThrownBy(() -> DataDirectory.open(root, "storage"))
                .hasMessageContaining("belongs to a placement, not a storage");
        Files.writeString(root.resolve(DataDirectory.STAMP_FILE), "format=7\ncomponent=placement\nwritten-by=9.9\n");
        assertThatThrownBy(() -> DataDirectory.open(root, "placement"))
                .isInstanceOf(DuetException.class)
                .satisfies(e -> assertThat(((DuetException) e).code()).isEqualTo(ErrorCode.INCOMPATIBLE_DATA_DIRECTORY))
                .hasMessageContaining("format 7 by DuetDB 9.9; this build reads format 1");
    }

    @Test
    void refusesAForeignNonEmptyDirectory(@TempDir Path root) throws Exception {
        Files.writeString(root.resolve("somebody-elses-file"), "x");
        assertThatThrownBy(() -> DataDirectory.open(root, "placement")).hasMessageContaining("not written by DuetDB");
    }
}
