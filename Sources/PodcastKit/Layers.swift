import Basics
// The layers below are part of PodcastKit's interface: a front end that imports PodcastKit
// sees the values its use cases take and return (feeds, episodes, downloads, subscriptions).
@_exported import Basics
@_exported import Downloads
@_exported import Feeds
@_exported import Fetching
@_exported import Model
@_exported import Privacy
@_exported import Search
@_exported import Selection
@_exported import SideFiles
@_exported import Source
@_exported import Store
@_exported import Sync
@_exported import Tags
@_exported import Transfer
