/// Facts about this release of podcast: what `--version` prints and what every request says.
public enum Release {
  public static let version = "0.1.0"
  public static let userAgent = "podcast/\(version)"
}
