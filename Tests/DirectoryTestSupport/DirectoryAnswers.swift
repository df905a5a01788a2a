import Foundation

/// Canned answers of the four directories to a search for "freak show", in the shapes and
/// with the habits of the real services (their documented answers and recorded ones):
///
/// - Apple: blank lines before the JSON, a `resultCount` that disagrees with `results`, an
///   artist mixed in, a show without `feedUrl`.
/// - Podcast Index: `"status": "true"` as a string; `itunesId` and `categories` `null` or
///   an object, `language` `""`; the same show twice (its m4a and mp3 feeds share one
///   `podcastGuid`); a dead feed; a show that moved its feed since Apple saw it.
/// - fyyd: `episode_count` as a string in one podcast and a number in the next, `categories`
///   an array or a number, `lastpub` ISO 8601 with an offset or the older `2016-06-27 00:30:17`.
/// - gpodder.net: a bare array, `title` set to the feed URL where it knows no title.
///
/// Together: Freak Show is listed by all four (by URL once normalised, and by podcast:guid);
/// Timmy Trumpet's show by fyyd and gpodder.net (by URL); The Freak Show Podcast by Apple and
/// Podcast Index (by iTunes id, under two feed URLs); three shows by one directory each.
public enum DirectoryAnswers {
  public static let term = "freak show"

  public static let apple = """


    {
     "resultCount":50,
     "results": [
    {"wrapperType":"track", "kind":"podcast", "collectionId":281006136, "trackId":281006136, "artistName":"Metaebene Personal Media - Tim Pritlove", "collectionName":"Freak Show", "trackName":"Freak Show", "collectionViewUrl":"https://podcasts.apple.com/us/podcast/freak-show/id281006136?uo=4", "feedUrl":"https://feeds.metaebene.me/freakshow/m4a", "trackViewUrl":"https://podcasts.apple.com/us/podcast/freak-show/id281006136?uo=4", "artworkUrl30":"https://is1-ssl.mzstatic.com/image/thumb/Podcasts/freakshow/30x30bb.jpg", "artworkUrl60":"https://is1-ssl.mzstatic.com/image/thumb/Podcasts/freakshow/60x60bb.jpg", "artworkUrl100":"https://is1-ssl.mzstatic.com/image/thumb/Podcasts/freakshow/100x100bb.jpg", "artworkUrl600":"https://is1-ssl.mzstatic.com/image/thumb/Podcasts/freakshow/600x600bb.jpg", "collectionPrice":0.00, "trackPrice":0.00, "releaseDate":"2024-11-20T19:00:00Z", "collectionExplicitness":"notExplicit", "trackExplicitness":"cleaned", "trackCount":234, "country":"USA", "currency":"USD", "primaryGenreName":"Technology", "contentAdvisoryRating":"Clean", "genreIds":["1318", "26"], "genres":["Technology", "Podcasts"]},
    {"wrapperType":"artist", "artistType":"Artist", "artistName":"Freak Show", "artistLinkUrl":"https://music.apple.com/us/artist/freak-show/123456", "artistId":123456},
    {"wrapperType":"track", "kind":"podcast", "collectionId":1512345678, "trackId":1512345678, "artistName":"Circus Nights", "collectionName":"Freak Show Stories", "trackName":"Freak Show Stories", "collectionViewUrl":"https://podcasts.apple.com/us/podcast/freak-show-stories/id1512345678?uo=4", "artworkUrl100":"https://is2-ssl.mzstatic.com/image/thumb/Podcasts/stories/100x100bb.jpg", "releaseDate":"2021-03-02T08:00:00Z", "trackCount":12, "primaryGenreName":"Fiction", "genres":["Fiction", "Podcasts"]},
    {"wrapperType":"track", "kind":"podcast", "collectionId":1001001001, "trackId":1001001001, "artistName":"Sam Carter", "collectionName":"The Freak Show Podcast", "trackName":"The Freak Show Podcast", "collectionViewUrl":"https://podcasts.apple.com/us/podcast/the-freak-show-podcast/id1001001001?uo=4", "feedUrl":"https://anchor.fm/s/4a8b2c/podcast/rss", "artworkUrl600":"https://is3-ssl.mzstatic.com/image/thumb/Podcasts/tfsp/600x600bb.jpg", "releaseDate":"2023-05-14T12:00:00Z", "trackCount":88, "primaryGenreName":"Comedy", "genres":["Comedy", "Podcasts"]}]
    }


    """

  public static let podcastIndex = """
    {"status":"true","feeds":[
    {"id":575694,"podcastGuid":"2a5a4f2e-8d84-5c3d-9a2e-5f5b0c1d7e11","title":"Freak Show","url":"http://FEEDS.metaebene.me:80/freakshow/m4a/","originalUrl":"http://freakshow.fm/feed/m4a/","link":"https://freakshow.fm","description":"Menschen! Technik! Sensationen!","author":"Metaebene Personal Media - Tim Pritlove","ownerName":"Metaebene Personal Media","image":"https://freakshow.fm/files/2013/07/fs-icon-1400.jpg","artwork":"https://freakshow.fm/files/2013/07/fs-icon-1400.jpg","lastUpdateTime":1732143700,"lastCrawlTime":1732230000,"lastParseTime":1732143710,"lastGoodHttpStatusTime":1732230000,"lastHttpStatus":200,"contentType":"application/rss+xml; charset=UTF-8","itunesId":null,"generator":"Podlove Podcast Publisher v4.1.3","language":"de-DE","explicit":false,"type":0,"medium":"podcast","dead":0,"episodeCount":301,"crawlErrors":0,"parseErrors":0,"categories":{"102":"Technology","77":"Society","78":"Culture"},"locked":0,"imageUrlHash":3651002471,"newestItemPubdate":1732143600},
    {"id":920666,"podcastGuid":"2a5a4f2e-8d84-5c3d-9a2e-5f5b0c1d7e11","title":"Freak Show (MP3 Audio)","url":"https://feeds.metaebene.me/freakshow/mp3","originalUrl":"https://feeds.metaebene.me/freakshow/mp3","link":"https://freakshow.fm","description":"Menschen! Technik! Sensationen!","author":"Metaebene Personal Media - Tim Pritlove","ownerName":"","image":"","artwork":"","lastUpdateTime":1732143700,"lastCrawlTime":1732230000,"lastParseTime":1732143710,"lastGoodHttpStatusTime":1732230000,"lastHttpStatus":200,"contentType":"application/rss+xml","itunesId":null,"generator":null,"language":"","explicit":false,"type":0,"medium":"podcast","dead":0,"episodeCount":298,"crawlErrors":0,"parseErrors":0,"categories":null,"locked":0,"imageUrlHash":0,"newestItemPubdate":1732143600},
    {"id":4022001,"podcastGuid":"c0ffee00-1111-5222-8333-444455556666","title":"The Freak Show Podcast","url":"https://feeds.samcarter.example/freakshowpodcast.xml","originalUrl":"https://anchor.fm/s/4a8b2c/podcast/rss","link":"https://samcarter.example","description":"Comedy from the edge of the midway.","author":"Sam Carter","ownerName":"Sam Carter","image":"https://samcarter.example/art.jpg","artwork":"https://samcarter.example/art.jpg","lastUpdateTime":1716000000,"lastCrawlTime":1732200000,"lastParseTime":1716000000,"lastGoodHttpStatusTime":1732200000,"lastHttpStatus":200,"contentType":"text/xml","itunesId":1001001001,"generator":null,"language":"en","explicit":true,"type":0,"medium":"podcast","dead":0,"episodeCount":91,"crawlErrors":0,"parseErrors":0,"categories":{"16":"Comedy"},"locked":0,"imageUrlHash":123,"newestItemPubdate":1715990400},
    {"id":33221,"podcastGuid":"","title":"Freak Show Radio (gone)","url":"http://oldhost.example/freakshowradio.xml","originalUrl":"http://oldhost.example/freakshowradio.xml","link":"","description":"","author":"","ownerName":"","image":"","artwork":"","lastUpdateTime":0,"lastCrawlTime":1600000000,"lastParseTime":0,"lastGoodHttpStatusTime":0,"lastHttpStatus":404,"contentType":"","itunesId":null,"generator":null,"language":"","explicit":false,"type":0,"medium":"podcast","dead":1,"episodeCount":0,"crawlErrors":12,"parseErrors":0,"categories":null,"locked":0,"imageUrlHash":0,"newestItemPubdate":0},
    {"id":6600123,"podcastGuid":"5d1e7c3a-0b9f-5a61-8f2d-77aa0e9c4b21","title":"Freakshow Radio","url":"https://freakshowradio.example/feed.xml","originalUrl":"https://freakshowradio.example/feed.xml","link":"https://freakshowradio.example","description":"Value-for-value oddities.","author":"","ownerName":"Freakshow Radio Collective","image":"https://freakshowradio.example/cover.png","artwork":"https://freakshowradio.example/cover.png","lastUpdateTime":1731500000,"lastCrawlTime":1732220000,"lastParseTime":1731500000,"lastGoodHttpStatusTime":1732220000,"lastHttpStatus":200,"contentType":"application/xml","itunesId":null,"generator":"Castopod","language":"","explicit":false,"type":0,"medium":"podcast","dead":0,"episodeCount":17,"crawlErrors":0,"parseErrors":0,"categories":null,"locked":1,"imageUrlHash":99,"newestItemPubdate":1731499200}
    ],"count":5,"query":"freak show","description":"Found matching feeds"}
    """

  public static let fyyd = """
    {
        "status": 1,
        "msg": "ok",
        "meta": {
            "paging": {"count": 10, "page": 0, "first_page": 0, "last_page": 1, "next_page": 1, "prev_page": null},
            "API_INFO": {"API_VERSION": "0.2"},
            "SERVER": "195.201.115.6",
            "duration": 0
        },
        "data": [
            {
                "title": "Freak Show",
                "id": 85,
                "xmlURL": "https:\\/\\/feeds.metaebene.me\\/freakshow\\/m4a",
                "htmlURL": "https:\\/\\/freakshow.fm",
                "imgURL": "https:\\/\\/freakshow.fm\\/files\\/2013\\/07\\/fs-icon-1400.jpg",
                "status": 200,
                "slug": "freak-show",
                "layoutImageURL": "https:\\/\\/img-1.fyyd.de\\/pd\\/layout\\/85.jpg",
                "thumbImageURL": "https:\\/\\/img-1.fyyd.de\\/pd\\/thumbs\\/85.png",
                "smallImageURL": "https:\\/\\/img-1.fyyd.de\\/pd\\/small\\/85.jpg",
                "microImageURL": "https:\\/\\/img-1.fyyd.de\\/pd\\/micro\\/85.png",
                "language": "de",
                "lastpoll": "2024-11-22T01:10:00+01:00",
                "generator": "Podlove Podcast Publisher v4.1.3",
                "categories": [52, 61],
                "lastpub": "2024-11-21T23:30:00+01:00",
                "rank": 32,
                "url_fyyd": "https:\\/\\/fyyd.de\\/podcast\\/freak-show\\/0",
                "description": "Die muntere Talk Show um Leben mit Technik, das Netz und Technikkultur.",
                "subtitle": "Menschen! Technik! Sensationen!",
                "episode_count": "297",
                "stats": {"medianduration": 14400, "medianduration_string": "4h", "episodecount": 297, "pubinterval": 14}
            },
            {
                "title": "Timmy Trumpet \\u2013 Freak Show",
                "id": 36645,
                "xmlURL": "http:\\/\\/timmytrumpet.podtree.com\\/feed\\/podcast",
                "htmlURL": "http:\\/\\/timmytrumpet.podtree.com",
                "imgURL": "",
                "status": 304,
                "slug": "timmy-trumpet-freak-show",
                "layoutImageURL": "https:\\/\\/img-1.fyyd.de\\/pd\\/layout\\/36645.jpg",
                "thumbImageURL": "https:\\/\\/img-1.fyyd.de\\/pd\\/thumbs\\/36645.png",
                "microImageURL": "https:\\/\\/img-1.fyyd.de\\/pd\\/micro\\/36645.png",
                "language": "en",
                "lastpoll": "2017-04-17 03:58:39",
                "generator": "https:\\/\\/wordpress.org\\/?v=4.5.2",
                "categories": 38,
                "lastpub": "2016-06-27 00:30:17",
                "rank": 0,
                "url_fyyd": "https:\\/\\/fyyd.de\\/podcast\\/36645",
                "description": "A weekly mix of the hottest tracks, bootlegs, mashups and more!",
                "subtitle": "Timmy Trumpet - Freak Show\\u2028",
                "episode_count": 52
            }
        ]
    }
    """

  public static let gpodder = """
    [{"url": "https://feeds.metaebene.me/freakshow/m4a", "title": "Freak Show", "author": "Metaebene Personal Media - Tim Pritlove", "description": "Menschen! Technik! Sensationen!", "subscribers": 1412, "subscribers_last_week": 1409, "logo_url": "https://freakshow.fm/files/2013/07/fs-icon-1400.jpg", "scaled_logo_url": "https://gpodder.net/logo/64/3f7/3f7a.jpg", "website": "https://freakshow.fm", "mygpo_link": "http://gpodder.net/podcast/freak-show"},
     {"url": "http://timmytrumpet.podtree.com/feed/podcast", "title": "http://timmytrumpet.podtree.com/feed/podcast", "author": null, "description": "", "subscribers": 3, "subscribers_last_week": 3, "logo_url": null, "website": null, "mygpo_link": "http://gpodder.net/podcast/1234567"},
     {"url": "http://freakshow.libsyn.com/rss", "title": "The Freak Show Hour", "author": "Dana & Lee", "description": "Two friends, one hour, no rules.", "subscribers": 27, "subscribers_last_week": 26, "logo_url": "http://freakshow.libsyn.com/logo.png", "website": "http://freakshow.libsyn.com", "mygpo_link": "http://gpodder.net/podcast/7654321"}]
    """

  /// Podcast Index's answer to a lookup that finds nothing: 200, and `feed` an empty array.
  public static let podcastIndexNotFound = """
    {"status":"true","query":{"id":"1"},"feed":[],"description":"No feeds match this id."}
    """

  /// Podcast Index's answer to `/podcasts/byfeedid` (or `byguid`, `byitunesid`) for a show
  /// whose feed is `feedURL`.
  public static func podcastIndexFeed(id: Int, feedURL: String, title: String = "Loopback Show")
    -> String
  {
    """
    {"status":"true","query":{"id":"\(id)"},"feed":{"id":\(id),"podcastGuid":"9b024349-ccf0-5f69-a609-6b82873eab3c","medium":"podcast","title":"\(title)","url":"\(feedURL)","originalUrl":"\(feedURL)","link":"https://example.com","description":"A show.","author":"Loopback","ownerName":"Loopback","image":"","artwork":"","lastUpdateTime":1732143700,"lastCrawlTime":1732230000,"lastParseTime":1732143710,"lastGoodHttpStatusTime":1732230000,"lastHttpStatus":200,"contentType":"application/rss+xml","itunesId":null,"itunesType":"episodic","generator":null,"language":"en","explicit":false,"type":0,"dead":0,"chash":"abc","episodeCount":3,"crawlErrors":0,"parseErrors":0,"categories":null,"locked":0,"imageUrlHash":0,"value":{"model":{"type":"lightning","method":"keysend","suggested":"0.00000005000"},"destinations":[]},"funding":{"url":"https://example.com/support","message":"Support the show"},"newestItemPublishTime":1732143600}}
    """
  }

  /// fyyd's answer to `/0.2/podcast?podcast_id=ID` for a show whose feed is `feedURL`.
  public static func fyydPodcast(id: Int, feedURL: String, title: String = "Loopback Show")
    -> String
  {
    let escaped = feedURL.replacingOccurrences(of: "/", with: "\\/")
    return """
      {"status":1,"msg":"ok","meta":{"paging":{"count":50,"page":0,"first_page":0,"last_page":0,"next_page":null,"prev_page":null},"API_INFO":{"API_VERSION":0.2}},"data":{"title":"\(title)","id":\(id),"xmlURL":"\(escaped)","htmlURL":"https:\\/\\/example.com","imgURL":"","status":200,"slug":"loopback-show","language":"en","lastpoll":"2024-11-22T01:10:00+01:00","generator":null,"categories":[52],"lastpub":"2024-11-20 23:00:00","rank":1,"url_fyyd":"https:\\/\\/fyyd.de\\/podcast\\/\(id)","description":"A show.","subtitle":"","episode_count":"3","episodes":[]}}
      """
  }
}
