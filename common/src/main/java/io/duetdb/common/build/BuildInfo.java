package io.duetdb.common.build;

/** The version of this build, from the jar manifest when there is one. */
public final class BuildInfo {
    private static final String DEVELOPMENT = "0.1.0-SNAPSHOT";

    private BuildInfo() {
    }

    public static String version() {
        String version = BuildInfo.class.getPackage().getImplementationVersion();
        return version == null ? DEVELOPMENT : version;
    }
}
