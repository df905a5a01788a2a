// What a front end names besides the use cases: the model's values and rules, the feeds and
// filters they are made of, the user's config file and ~/.netrc, and the values the use cases
// take and return. Nothing of the store, the transfer engine or the directory clients: a
// front end reaches those only through a use case (Tests/podcastTests/PackageLayoutTests
// fails when it names one).
@_exported import Basics
@_exported import Config
@_exported import Feeds
@_exported import Model
@_exported import Privacy
@_exported import Selection

@_exported import enum AccountServer.AccountAPI
@_exported import struct AccountServer.AccountDevice
@_exported import struct Downloads.DownloadJob
@_exported import struct Downloads.DownloadResult
@_exported import struct Downloads.DownloadSettings
@_exported import protocol Downloads.RunReporter
@_exported import class Fetching.ProgressBuffer
@_exported import enum FullText.FindField
@_exported import struct FullText.Moment
@_exported import struct FullText.Snippet
@_exported import enum Search.Directory
@_exported import struct Search.PodcastIndexCredentials
@_exported import enum Search.SearchError
@_exported import struct Search.SearchResult
@_exported import struct SideFiles.FeedBaseURL
@_exported import struct Source.ResolvedFeed
@_exported import struct Sync.SyncOutcome
@_exported import struct Sync.SyncPlan
@_exported import struct Sync.SyncPreview
@_exported import enum Transfer.TransferRate
@_exported import struct Transfer.TransferRateError
