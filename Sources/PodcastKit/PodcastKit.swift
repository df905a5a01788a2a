/// Facts about the library itself.
public enum PodcastKit {
  public static let version = "0.1.0"
  public static let userAgent = "podcast/\(version)"
}
