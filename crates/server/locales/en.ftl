# The page's and the server's texts in English. One message per text a player reads; the
# Russian catalogue (ru.ftl) has the same messages. Notation (a1-h8, c3-d4, e5:c3) is never
# translated.

## The page's frame: header, settings, pages that do not exist

site-name = Bashni
nav-lobby = Lobby
nav-tournaments = Tournaments
nav-new-game = New game
nav-study = Study board
nav-leaderboard = Leaderboard
needs-javascript = This page needs JavaScript.
page-not-found = Page not found
page-not-found-back = Go to the start page

settings = Settings
settings-page-colours = Page colours
settings-scheme-system = As the system
settings-scheme-light = Light
settings-scheme-dark = Dark
settings-board-colours = Board colours
settings-board-wood = Wood
settings-board-green = Green
settings-board-grey = Grey
settings-board-size = Board size
settings-sounds = Sounds
settings-language = Language

## The start page

home-new-game = New game
home-play = Play
home-mode-engine = Against the engine
home-mode-friend = Against a friend (invite link)
home-mode-local = Two people at one screen
home-game = Game
home-variant-bashni = Bashni (towers)
home-variant-russian = Russian draughts
home-level = Engine level
home-colour = Your colour
home-colour-white = White
home-colour-black = Black
home-colour-random = Random
home-clock = Clock
home-correspondence = Correspondence (days per move)
home-days =
    { $days ->
        [one] { $days } day
       *[other] { $days } days
    }
home-days-per-move = Days per move
home-days-per-move-hint = Each move may take this long. Time not used does not carry over.
home-your-name = Your name
home-first-player-name = First player's name (White)
home-second-player = Second player
home-second-player-name = Second player's name
home-account-name = The name of your account.
home-rated = Rated
home-start = Start the game
home-pdn-title = Open game records (PDN)
home-pdn-file = PDN file
home-pdn-paste = Or paste PDN text here
home-pdn-upload = Upload
home-pdn-nothing = Choose a file or paste PDN text.
home-pdn-none-found = No games found in the text.
home-pdn-game = Game { $number }
home-pdn-game-error = Game { $number }: { $error }
home-pdn-unreadable = cannot be read
home-your-games = Your games
home-your-games-none = None yet.
home-live-games = Live games
home-live-games-none = No game is being played now.
home-finished-games = Finished games
home-finished-games-none = No games yet.
home-records = Game records
home-records-none = No records uploaded yet.
home-loading = Loading…
home-more = More
home-lobby-title = Play someone now
home-lobby-text = Find an opponent in the lobby: accept a seek, or post your own.
home-lobby-link = Go to the lobby
home-study-title = Study
home-study-text = Set up any position, build towers, play through variations and ask the engine.
home-study-link = Open the study board

## A game in a list

game-item-white = White
game-item-black = Black
game-item-in-play = in play
game-item-aborted = aborted
game-item-moves =
    { $moves ->
        [one] { $moves } move
       *[other] { $moves } moves
    }

## Lobby, tournaments, ratings, players (lobby.js, seeks.js, tournaments.js, ratings.js, rating-chart.js, player.js, your-turn.js, account-seat.js)

lobby-title = Lobby – Bashni
lobby-connecting = Connecting…
lobby-connection-lost = Connection lost. Connecting again… Your seeks were removed.
lobby-connection-lost-retry = The connection was lost. Try again.
lobby-no-answer = The server did not answer.
lobby-not-connected = Not connected. Wait a moment and try again.
lobby-press-play = Press Play to accept a seek, or post your own.
# $clocks: the clocks of the player's seeks, "5+3, 10+5".
lobby-waiting = Waiting for an opponent ({ $clocks }). Keep this page open.
lobby-paired = A game is ready. You play { $colour ->
        [white] white
        [black] black
       *[other] { $colour }
    }.
lobby-col-player = Player
lobby-col-game = Game
lobby-col-clock = Clock
lobby-col-type = Type
lobby-col-colour = Plays as
lobby-col-action = Action
lobby-cancel = Cancel
lobby-play = Play
lobby-guest = Guest
lobby-you = (you)
# A seek on one line: "Bashni, 5+3, Rated, plays White".
lobby-seek-summary = { $variant }, { $clock }, { $type }, plays { $colour ->
        [white] White
        [black] Black
       *[other] Random
    }
lobby-no-seeks = No open seeks. Post one, or use quick pairing.
lobby-quick = Quick pairing
lobby-quick-hint = Play the first player who waits with this clock, or wait for one.
lobby-clock-option = { $minutes } min + { $increment } s
lobby-post-title = Post a seek
lobby-post = Post the seek
lobby-rated-check = Rated (log in first)
lobby-open-seeks = Open seeks
lobby-live = Live games to watch

tournaments-title = Tournaments – Bashni
tournaments-none = None.
tournaments-open = Open
tournaments-running = Playing now
tournaments-finished = Finished
tournaments-log-in = Log in
# Follows the link "Log in".
tournaments-log-in-to-make = { "" } to make or join a tournament.
tournament-title = { $name } – Bashni
tournament-system = System
tournament-system-round-robin = Round robin
tournament-system-swiss = Swiss
tournament-rounds-count = { $rounds } rounds
tournament-micro = micro-matches
tournament-clock = { $minutes } min + { $increment } s
tournament-no-clock = no clock
tournament-tiebreak-sb-short = SB
tournament-tiebreak-sb = Sonneborn-Berger
tournament-tiebreak-buchholz-short = Buch.
tournament-tiebreak-buchholz = Buchholz
tournament-tiebreak-median-short = Med.
tournament-tiebreak-median = Median Buchholz
tournament-tiebreak-wins-short = Wins
tournament-tiebreak-wins = Games won
tournament-playing = playing
tournament-status-open = Open: players can join.
tournament-status-running = Round { $round } of { $rounds } is being played.
tournament-status-finished = Finished.
# $description: what the tournament is, "Bashni, round robin, 8 min + 4 s".
tournament-item-meta = { $description } · { $players } players · by { $creator }
tournament-made-by = { $description } · made by { $creator }
tournament-variant-bashni = Bashni
tournament-variant-russian = Russian draughts
tournament-rounds = Rounds
tournament-micro-check = Micro-matches: two games on a drawn opening
tournament-new = New tournament
tournament-name = Name
tournament-create = Make the tournament
tournament-round = Round { $round }
tournament-pairing = { $white } – { $black }
tournament-pairing-leg = { $white } – { $black } (game { $leg })
tournament-bye = { $name } has a bye (a win).
tournament-place = Place
tournament-player = Player
tournament-points = Points
tournament-wins-draws-losses = W-D-L
tournament-leave = Leave
tournament-join = Join
tournament-start = Start
tournament-log-in-to-join = Log in to join
tournament-missing = No such tournament
tournament-cannot-show = The page cannot be shown
tournament-players = Players ({ $count })
tournament-standings = Standings
tournament-points-rule = Points: { $win } for a win, { $draw } for a draw, { $loss } for a loss.
tournament-crosstable = Crosstable
tournament-download = Download all games (PDN)

ratings-rated = Rated
ratings-casual = Casual
ratings-not-rated = Not rated ({ $reason })
# $white, $black: the ratings after the game; $whiteDiff, $blackDiff: their changes, "+12", "−12".
ratings-change = White { $white } ({ $whiteDiff }), Black { $black } ({ $blackDiff })
ratings-chart = Rating after each game
# $variant: the game's name; $pace: blitz, rapid, classical or correspondence.
ratings-row-title = { $variant }, { $pace ->
        [blitz] blitz
        [rapid] rapid
        [classical] classical
       *[correspondence] correspondence
    }
ratings-games = ({ $games ->
        [one] { $games } game
       *[other] { $games } games
    })
ratings-title = Ratings
ratings-none = No rated games yet.
ratings-provisional-hint = ? means the rating is not sure yet (few games).
leaderboard-title = Leaderboard – Bashni
leaderboard-player = Player
leaderboard-rating = Rating
leaderboard-games = Games
leaderboard-tab = { $variant } { $pace ->
        [blitz] Blitz
        [rapid] Rapid
        [classical] Classical
       *[correspondence] Correspondence
    }
leaderboard-hint = Players with a sure rating first; ? marks a rating that is not sure yet.

player-title = { $name } – Bashni
player-col-game = Game
player-col-won = Won
player-col-drawn = Drawn
player-col-lost = Lost
player-log-out-everywhere = Log out everywhere
player-log-out-everywhere-hint = Log out on every device and browser where you are logged in:
player-delete-title = Delete the account
player-delete-hint = This cannot be undone. Your games stay and show "deleted player". The name { $name } stays reserved, so nobody else can take it.
player-password = Your password
player-delete = Delete my account
player-your-account = Your account
# Added to a game in the player's list: the colour the player had.
player-played = , played { $colour ->
        [white] White
        [black] Black
       *[other] { $colour }
    }
player-no-games = No games yet.
# $date: the day the account was made, "1 March 2026".
player-since = Member since { $date }.
player-results = Results
player-results-hint = Games against people that ended with a result.
player-recent-games = Recent games
player-missing = No such player
player-missing-text = There is no player with this name.
player-cannot-show = The page cannot be shown

your-turn-title = Your turn
your-turn-none = No game waits for your move.
your-turn-with-clock = with a clock
your-turn-against = Your move against { $opponent }
your-turn-against-someone = Your move against your opponent
# $pace: "3 days per move" or "with a clock"; $move: the move's number; $colour: the player's colour.
your-turn-meta = { $variant }, { $pace }, move { $move } ({ $colour ->
        [white] white
        [black] black
       *[other] { $colour }
    })
your-turn-until = Until { $date }
